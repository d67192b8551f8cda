// The capture floor: the least a SQLite Durable Object can do per capture, with no rules.
//
// Bench-only fixture (scripts/bench.sh runs it under Miniflare next to the real Worker); it is never
// part of the product's routes. `POST /floor/{name}` with an `Idempotency-Key` header goes, like a
// capture, from a front Worker to the object named `{name}`, which in ONE `transactionSync` looks the
// key up, reads the count, writes count+1 only if the count is still the one it read (the
// compare-and-set), and inserts the key. No JSON definition, no money, no rules, no receipt.
// Answers: 201 {"count"} recorded, 200 {"count","replayed":true} known key, 400 no key.
import { DurableObject } from "cloudflare:workers";

export class Floor extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS counts(name TEXT PRIMARY KEY, n INTEGER NOT NULL);" +
        "CREATE TABLE IF NOT EXISTS keys(name TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(name, key));",
    );
  }

  async fetch(request) {
    const name = new URL(request.url).pathname.slice(1);
    const key = request.headers.get("idempotency-key");
    if (!key) return new Response("missing Idempotency-Key", { status: 400 });
    const out = this.ctx.storage.transactionSync(() => {
      const known = this.sql.exec("SELECT n FROM keys WHERE name = ? AND key = ?", name, key).toArray();
      if (known.length) return { status: 200, count: known[0].n, replayed: true };
      const row = this.sql.exec("SELECT n FROM counts WHERE name = ?", name).toArray();
      const expected = row.length ? row[0].n : 0;
      // The compare-and-set: the row changes (and RETURNING yields it) only if n is still `expected`.
      const written = this.sql
        .exec(
          "INSERT INTO counts(name, n) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET n = n + 1 WHERE n = ? RETURNING n",
          name,
          expected,
        )
        .toArray();
      if (written.length !== 1) return { status: 409, count: expected };
      this.sql.exec("INSERT INTO keys(name, key, n) VALUES (?, ?, ?)", name, key, expected + 1);
      return { status: 201, count: expected + 1 };
    });
    const { status, ...body } = out;
    return Response.json(body, { status });
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const m = /^\/floor\/([A-Za-z0-9_-]{1,64})$/.exec(url.pathname);
    if (!m || request.method !== "POST") return new Response("not found", { status: 404 });
    const stub = env.FLOOR.get(env.FLOOR.idFromName(m[1]));
    return stub.fetch(`https://floor/${m[1]}`, { method: "POST", headers: request.headers });
  },
};
