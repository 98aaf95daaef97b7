// Reads skillnode's A2A Agent Cards the way A2A clients do, and checks them three ways, for
// tests/node/formats/a2a_cards_test.py:
//   1. @a2a-js/sdk's DefaultAgentCardResolver fetches the card (AgentCardResolver.default
//      without a token; with one, a resolver whose fetch adds the bearer token);
//   2. its signature is verified independently: the node's JWKS fetched, the payload rebuilt as
//      `canonicalize` (RFC 8785) of the card without `signatures`, and jose.flattenedVerify run
//      with that detached payload; then with the SDK's own verifyAgentCardSignature;
//   3. ajv validates the card against agent_card.schema.json (A2A v1.0.0).
// A copy of the card with its name changed must fail both verifications.
// Usage: node a2a_client.mjs JOBS.json, where JOBS.json is a list of
//   {"base": "http://127.0.0.1:PORT", "path": null | "/a2a/agents/ID/agent-card.json",
//    "token": null | "skn_..."}
// Prints one JSON object per job on one line each.
import { readFileSync } from "node:fs";
import * as jose from "jose";
import canonicalize from "canonicalize";
import Ajv from "ajv";
import { verifyAgentCardSignature } from "@a2a-js/sdk";
import { AgentCardResolver, DefaultAgentCardResolver } from "@a2a-js/sdk/client";

// The SDK's verifier reports each failed signature with console.debug, on stdout: stdout is
// this script's answer, so those go to stderr.
console.debug = (...args) => console.error(...args);

const schema = JSON.parse(readFileSync(new URL("./agent_card.schema.json", import.meta.url)));
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

function resolverFor(token) {
  if (!token) return AgentCardResolver.default;
  return new DefaultAgentCardResolver({
    fetchImpl: (url, init) =>
      fetch(url, { ...init, headers: { ...(init?.headers ?? {}), Authorization: `Bearer ${token}` } }),
  });
}

// jose + canonicalize, with the keys of the JWKS the node publishes.
async function verifyIndependently(card, jwks) {
  const keys = jose.createLocalJWKSet(jwks);
  const { signatures, ...unsigned } = card;
  if (!Array.isArray(signatures) || signatures.length === 0) throw new Error("no signatures");
  const payload = jose.base64url.encode(new TextEncoder().encode(canonicalize(unsigned)));
  const headers = [];
  for (const signature of signatures) {
    const verified = await jose.flattenedVerify(
      { payload, protected: signature.protected, signature: signature.signature },
      keys, { algorithms: ["EdDSA"] });
    headers.push(verified.protectedHeader);
  }
  return headers;
}

// The SDK's verifier, its key looked up by kid in the JWKS its jku names.
async function verifyWithSdk(card, expectedJku) {
  const seen = [];
  await verifyAgentCardSignature(async (kid, jku) => {
    seen.push(jku);
    if (jku !== expectedJku) throw new Error(`jku ${jku} is not ${expectedJku}`);
    const jwks = await (await fetch(jku)).json();
    const key = jwks.keys.find((k) => k.kid === kid);
    if (!key) throw new Error(`no key ${kid} in ${jku}`);
    return jose.importJWK(key, key.alg);
  })(card);
  return seen;
}

async function outcome(promise) {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error: String(error?.message ?? error) };
  }
}

async function run(job) {
  const result = { job };
  const resolved = await outcome(resolverFor(job.token).resolve(job.base, job.path ?? undefined));
  if (!resolved.ok) return { ...result, resolved: false, error: resolved.error };
  const card = resolved.value;
  const jwksUrl = new URL("/.well-known/jwks.json", job.base).href;
  const jwks = await (await fetch(jwksUrl)).json();
  const thumbprints = await Promise.all(jwks.keys.map((k) => jose.calculateJwkThumbprint(k)));
  const independent = await outcome(verifyIndependently(card, jwks));
  const sdk = await outcome(verifyWithSdk(card, jwksUrl));
  const forged = { ...card, name: `${card.name} (forged)` };
  const forgedIndependent = await outcome(verifyIndependently(forged, jwks));
  const forgedSdk = await outcome(verifyWithSdk(forged, jwksUrl));
  return {
    ...result,
    resolved: true,
    card,
    jwks,
    kidsAreThumbprints: jwks.keys.every((k, i) => k.kid === thumbprints[i]),
    independent,
    sdk,
    forgedIndependent: forgedIndependent.ok,
    forgedSdk: forgedSdk.ok,
    schemaErrors: validate(card) ? [] : validate.errors,
  };
}

const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const job of jobs) console.log(JSON.stringify(await run(job)));
