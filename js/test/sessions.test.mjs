// The protocol session transcripts of docs/protocol.md (the ones
// tests/test_engine.py::test_the_documented_sessions_replay replays against
// the Python engine), replayed against the WebAssembly engine: every answer
// must be equal, error cases included. Only a bad_json answer's message is
// compared by its start ("not a JSON line: "): it quotes the JSON parser,
// which is Python's in one engine and this package's in the other.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createEngine } from "../index.js";

const doc = readFileSync(new URL("../../docs/protocol.md", import.meta.url), "utf8");

function sessions() {
  const out = [];
  const re = /```session\n([\s\S]*?)```/g;
  let m;
  while ((m = re.exec(doc))) {
    const pairs = [];
    for (const line of m[1].split("\n")) {
      if (line.startsWith("> ")) pairs.push([line.slice(2), null]);
      else if (line.startsWith("< ")) pairs[pairs.length - 1][1] = line.slice(2);
    }
    out.push([m[1].split("\n")[0], pairs]);
  }
  return out;
}

test("the documentation has sessions to replay", () => {
  assert.ok(sessions().length >= 3);
});

for (const [title, pairs] of sessions()) {
  test(`documented session: ${title.slice(0, 70)}`, async () => {
    const engine = await createEngine();
    for (const [request, answer] of pairs) {
      const got = await engine.request(request);
      if (!answer) continue;
      const want = JSON.parse(answer);
      if (want.error && want.error.code === "bad_json") {
        assert.match(got.error.message, /^not a JSON line: /);
        got.error.message = want.error.message;
      }
      assert.deepStrictEqual(got, want, request);
    }
  });
}
