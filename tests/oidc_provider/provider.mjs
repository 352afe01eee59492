// A real OpenID Connect provider for the single sign-on tests: panva's certified oidc-provider, on
// 127.0.0.1 at a free port, printed as "listening <port>" once it serves.
//
// What a test cannot do through a real provider's pages is done by a few control routes under /test/:
//   - sign-in: the interaction page signs in the address given as login_hint at once and grants the
//     scopes asked (an address starting with "unverified" has email_verified false);
//   - POST /test/rotate: a new signing key with a new kid replaces the old one (the old kid disappears
//     from the JWKS), as a provider rotating its keys does;
//   - POST /test/tamper {"claims": {...}, "unknown_key": bool}: the next token response's ID token is
//     signed again by this provider's own key (or by a key it never published) with those claims
//     changed, so a test sees exactly one fault (a wrong audience, nonce or expiry).
//
// Settings from the environment: CLIENT_ID, CLIENT_SECRET, REDIRECT_URIS (comma-separated).
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import * as jose from "jose";
import Provider from "oidc-provider";

const ALG = "RS256";

async function signingKey() {
  const { privateKey } = await jose.generateKeyPair(ALG, { extractable: true });
  return { ...(await jose.exportJWK(privateKey)), kid: randomUUID(), alg: ALG, use: "sig" };
}

function makeProvider(issuer, key) {
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: process.env.CLIENT_ID,
        client_secret: process.env.CLIENT_SECRET,
        redirect_uris: process.env.REDIRECT_URIS.split(","),
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [key] },
    cookies: { keys: ["hearken-tests-only"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(ctx, id) {
      return {
        accountId: id,
        async claims() {
          return { sub: id, email: id, email_verified: !id.startsWith("unverified") };
        },
      };
    },
  });
  provider.use(async (ctx, next) => {
    const interaction = ctx.path.match(/^\/interaction\/([^/]+)$/);
    if (interaction && ctx.method === "GET") {
      const details = await provider.interactionDetails(ctx.req, ctx.res);
      const email = details.params.login_hint;
      if (!email) {
        ctx.status = 400;
        ctx.body = "this test provider signs in the login_hint";
        return;
      }
      const grant = new provider.Grant({ accountId: email, clientId: details.params.client_id });
      grant.addOIDCScope(details.params.scope);
      const grantId = await grant.save();
      const result = { login: { accountId: email }, consent: { grantId } };
      ctx.redirect(
        await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false }),
      );
      return;
    }
    await next();
    if (ctx.path === "/token" && tamper && ctx.body?.id_token) {
      ctx.body = { ...ctx.body, id_token: await forged(ctx.body.id_token, tamper) };
      tamper = null;
    }
  });
  return provider;
}

async function forged(idToken, { claims = {}, unknown_key: unknownKey = false }) {
  const payload = { ...jose.decodeJwt(idToken), ...claims };
  const key = unknownKey ? { ...(await signingKey()), kid: "never-published" } : current.key;
  return new jose.SignJWT(payload)
    .setProtectedHeader({ alg: ALG, kid: key.kid, typ: "JWT" })
    .sign(await jose.importJWK(key, ALG));
}

async function body(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {};
}

let tamper = null;
let current = null;
const server = createServer(async (req, res) => {
  if (req.method === "POST" && req.url === "/test/rotate") {
    const key = await signingKey();
    current = { key, callback: makeProvider(issuer, key).callback() };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ kid: key.kid }));
  } else if (req.method === "POST" && req.url === "/test/tamper") {
    tamper = await body(req);
    res.writeHead(204).end();
  } else {
    current.callback(req, res);
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;
const key = await signingKey();
current = { key, callback: makeProvider(issuer, key).callback() };
console.log(`listening ${server.address().port}`);
