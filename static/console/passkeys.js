// Hearken console: passkeys (WebAuthn). "Add a passkey" on Your account, "Sign in with a passkey" on the
// login page and "Use a passkey" in a sign-in's second step. The server makes the options and checks the
// answers; this file only carries them between it and the browser's passkey dialog.
(function () {
  "use strict";

  function toBytes(text) {
    var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    while (base64.length % 4) base64 += "=";
    var raw = atob(base64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes.buffer;
  }

  function toText(buffer) {
    var bytes = new Uint8Array(buffer);
    var raw = "";
    for (var i = 0; i < bytes.length; i++) raw += String.fromCharCode(bytes[i]);
    return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function descriptors(list) {
    return (list || []).map(function (item) {
      return { type: item.type, id: toBytes(item.id), transports: item.transports };
    });
  }

  function csrfHeaders() {
    var headers = { "Content-Type": "application/json", Accept: "application/json" };
    try {
      var extra = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
      for (var name in extra) headers[name] = extra[name];
    } catch (e) { /* no token: the server refuses the request, and says so */ }
    return headers;
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", headers: csrfHeaders(), body: JSON.stringify(body || {}), credentials: "same-origin"
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok) throw new Error(data.details || "The server refused the request (" + response.status + ").");
        return data;
      });
    });
  }

  function showError(error) {
    var box = document.getElementById("passkey-error");
    var message = error && error.name === "NotAllowedError"
      ? "The passkey dialog was closed or timed out. Try again."
      : (error && error.message) || "Something went wrong with the passkey.";
    if (box) {
      box.textContent = message;
      box.hidden = false;
      box.setAttribute("tabindex", "-1");
      box.focus();
    }
  }

  function credentialJSON(credential) {
    var response = credential.response;
    var json = {
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
      response: { clientDataJSON: toText(response.clientDataJSON) }
    };
    if (credential.authenticatorAttachment) json.authenticatorAttachment = credential.authenticatorAttachment;
    if (response.attestationObject) {
      json.response.attestationObject = toText(response.attestationObject);
      if (response.getTransports) json.response.transports = response.getTransports();
    } else {
      json.response.authenticatorData = toText(response.authenticatorData);
      json.response.signature = toText(response.signature);
      if (response.userHandle) json.response.userHandle = toText(response.userHandle);
    }
    return json;
  }

  function register(form) {
    var name = form.querySelector("[name=passkey_name]").value;
    var password = form.querySelector("[name=passkey_password]").value;
    post("/account/passkeys/options", { name: name, confirmation: password }).then(function (started) {
      var options = started.options;
      options.challenge = toBytes(options.challenge);
      options.user.id = toBytes(options.user.id);
      options.excludeCredentials = descriptors(options.excludeCredentials);
      return navigator.credentials.create({ publicKey: options }).then(function (credential) {
        return post("/account/passkeys", { handle: started.handle, credential: credentialJSON(credential) });
      });
    }).then(function (done) { window.location.assign(done.redirect); }, showError);
  }

  function signIn() {
    var next = document.querySelector("input[name=next]");
    post("/login/passkey/options").then(function (started) {
      var options = started.options;
      options.challenge = toBytes(options.challenge);
      options.allowCredentials = descriptors(options.allowCredentials);
      return navigator.credentials.get({ publicKey: options }).then(function (credential) {
        return post("/login/passkey", {
          handle: started.handle, credential: credentialJSON(credential), next: next ? next.value : ""
        });
      });
    }).then(function (done) { window.location.assign(done.redirect); }, showError);
  }

  document.addEventListener("submit", function (event) {
    var form = event.target.closest("[data-passkey-register]");
    if (!form) return;
    event.preventDefault();
    if (!window.PublicKeyCredential) return showError(new Error("This browser cannot use passkeys."));
    register(form);
  });

  document.addEventListener("click", function (event) {
    if (!event.target.closest("[data-passkey-sign-in]")) return;
    if (!window.PublicKeyCredential) return showError(new Error("This browser cannot use passkeys."));
    signIn();
  });
})();
