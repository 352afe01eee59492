// The feedback widget's images, fetched only when a visitor asks to add a screenshot or attach an image
// (the widget itself stays small): the browser's own capture of this tab, or a file the visitor picks,
// checked here as the server will (PNG, JPEG or WebP, 5 MB, 3 at most), shown for review and removable.
// Sets window.HearkenFeedbackMedia = {shot, pick}; each takes {shadow, status, texts, files, list}.
// Every failure stays inside: the page goes on as before.

import css from './feedback-media.css';
import { h, say } from './shared/dom.js';

const TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const MAX_BYTES = 5 * 1024 * 1024;
const MAX_FILES = 3;
const styled = new WeakSet();

function add(ui, file) {
  const fits = TYPES.includes(file?.type) && file.size <= MAX_BYTES && ui.files.length < MAX_FILES;
  if (fits) ui.files.push(file);
  say(ui.status, fits ? '' : ui.texts.not_image, !fits);
  show(ui);
}

/** The previews, each with its Remove button: drawn from the decoded file, not loaded from a blob: URL,
 * which a host page's Content-Security-Policy (img-src) may refuse. */
function show(ui) {
  if (!styled.has(ui.shadow)) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    ui.shadow.adoptedStyleSheets = [...ui.shadow.adoptedStyleSheets, sheet];
    styled.add(ui.shadow);
  }
  ui.list.replaceChildren(
    ...ui.files.map((file, i) => {
      const name = `${file.name} (${i + 1})`;
      const image = h('canvas', { role: 'img', 'aria-label': name, width: 96, height: 72 });
      createImageBitmap(file).then((bitmap) => {
        const scale = Math.min(96 / bitmap.width, 72 / bitmap.height, 1);
        image.width = bitmap.width * scale || 1;
        image.height = bitmap.height * scale || 1;
        image.getContext('2d').drawImage(bitmap, 0, 0, image.width, image.height);
      }, () => {});
      const remove = () => {
        ui.files.splice(i, 1);
        show(ui);
      };
      return h('li', {}, image, h('button', { type: 'button', 'aria-label': `${ui.texts.remove}: ${name}`, onclick: remove }, ui.texts.remove));
    }),
  );
}

/** One frame of this tab, captured while the form is out of the way, as a PNG (JPEG if that is too big). */
async function shot(ui) {
  const dialog = ui.shadow.querySelector('dialog');
  dialog?.close();
  let stream;
  try {
    stream = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false, preferCurrentTab: true, selfBrowserSurface: 'include' });
    const video = h('video', { muted: true, playsinline: true });
    video.srcObject = stream;
    await video.play();
    await new Promise((ready) => (video.requestVideoFrameCallback ? video.requestVideoFrameCallback(ready) : setTimeout(ready, 200)));
    const canvas = h('canvas', { width: video.videoWidth, height: video.videoHeight });
    canvas.getContext('2d').drawImage(video, 0, 0);
    const encoded = (type, quality) => new Promise((done) => canvas.toBlob(done, type, quality));
    let blob = await encoded('image/png');
    if (blob.size > MAX_BYTES) blob = await encoded('image/jpeg', 0.85);
    add(ui, new File([blob], blob.type == 'image/png' ? 'screenshot.png' : 'screenshot.jpg', { type: blob.type }));
  } finally {
    stream?.getTracks().forEach((track) => track.stop());
    if (dialog?.isConnected && !dialog.open) dialog.showModal();
  }
}

/** Files the visitor picks. */
function pick(ui) {
  return new Promise((done) => {
    const input = h('input', { type: 'file', accept: TYPES.join(), multiple: true });
    input.onchange = () => {
      for (const file of input.files) add(ui, file);
      done();
    };
    input.oncancel = done;
    input.click();
  });
}

window.HearkenFeedbackMedia = { shot, pick };
