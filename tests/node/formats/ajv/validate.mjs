// Validates documents read from skillnode nodes, for tests/node/formats/formats_test.py:
//   node validate.mjs SCHEMA_DIR INPUT.json [SCHEMA.json...]
// Every *.json in SCHEMA_DIR and every further SCHEMA.json (the node's own copies, such as
// discovery/schema/mcp-server.schema.json) is a schema, named by its file name.
// INPUT is {"documents": [{"name", "schema": "<file in SCHEMA_DIR>", "document"}],
//           "signatures": [{"name", "publicKeyHex", "signatureHex", "signedBase64"}]}.
// Every document is checked with ajv (draft-07, every error, formats from ajv-formats) against
// its schema; every signature is an Ed25519 signature checked with node's own crypto over the
// signed bytes. Prints one JSON line per item: {"name", "ok", "errors"}; exits 0 when it could
// check everything (the Python test decides what the results mean).
import { readFileSync, readdirSync } from "node:fs";
import { createPublicKey, verify } from "node:crypto";
import { basename, join } from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";

const [schemaDir, inputPath, ...schemaFiles] = process.argv.slice(2);
// Strict, but for `required` inside an anyOf naming properties its sibling declares, as the
// specification's own PositionalArgument does.
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);
const inDir = readdirSync(schemaDir).filter((f) => f.endsWith(".json")).sort();
for (const path of [...inDir.map((f) => join(schemaDir, f)), ...schemaFiles]) {
  ajv.addSchema(JSON.parse(readFileSync(path, "utf8")), basename(path));
}
const input = JSON.parse(readFileSync(inputPath, "utf8"));
for (const item of input.documents ?? []) {
  const check = ajv.getSchema(item.schema);
  if (!check) {
    const errors = [`no schema ${item.schema}`];
    console.log(JSON.stringify({ name: item.name, ok: false, errors }));
    continue;
  }
  const ok = check(item.document);
  console.log(JSON.stringify({ name: item.name, ok, errors: ok ? [] : check.errors }));
}
// An Ed25519 public key as SubjectPublicKeyInfo DER: the fixed prefix, then the 32 raw bytes.
const kEd25519SpkiPrefix = Buffer.from("302a300506032b6570032100", "hex");
for (const item of input.signatures ?? []) {
  let ok = false;
  let errors = [];
  try {
    const key = createPublicKey({
      key: Buffer.concat([kEd25519SpkiPrefix, Buffer.from(item.publicKeyHex, "hex")]),
      format: "der",
      type: "spki",
    });
    ok = verify(null, Buffer.from(item.signedBase64, "base64"), key,
                Buffer.from(item.signatureHex, "hex"));
  } catch (error) {
    errors = [String(error)];
  }
  console.log(JSON.stringify({ name: item.name, ok, errors }));
}
