// Misuses the generated types must refuse: `tsc` has to fail on every line marked `// error` and on
// no other line (test/types.test.mjs checks both). Each call sits on one line.
import { createClient } from "promocodes-client";
import type { Schemas } from "promocodes-client";

const pc = createClient({ baseUrl: "https://promo.example", token: "t" });
const total: Schemas["MoneyInput"] = { amount: "80.00", currency: "EUR" };
const key = { idempotencyKey: "pi_1" };

export async function wrong(): Promise<void> {
  await pc.capture({ code: "SAVE10", totl: total }, key); // error
  await pc.capture({ code: "SAVE10" }, key); // error
  await pc.capture({ total }, key); // error
  await pc.capture({ code: "SAVE10", codes: ["A"], total }, key); // error
  await pc.capture({ code: "SAVE10", total, lines: [] }, key); // error
  await pc.capture({ code: "SAVE10", total: { amount: 80, currency: "EUR" } }, key); // error
  await pc.capture({ code: "SAVE10", total }); // error
  await pc.capture({ code: "SAVE10", total }, { idempotency_key: "pi_1" }); // error
  await pc.hold({ code: "SAVE10", total, ttl: 600 }, key); // error
  await pc.quote({ code: "SAVE10", lines: [{ sku: "MUG", quantity: 1 }] }); // error
  await pc.release({ code: "SAVE10" }); // error
  await pc.codes.put("X", { code: "X" }); // error
  await pc.codes.put("X", { code: "X", discount: { kind: "percent", percent: "10" }, startsAt: "2026-01-01T00:00:00Z" }); // error
  await pc.codes.patch("X", { activ: false }); // error
  await pc.campaigns.generate("BF", { count: 10 }); // error
  const r = await pc.capture({ code: "SAVE10", total }, key);
  console.log(r.receipt); // error
  if (r.outcome === "rejection") console.log(r.rejection.rejection === "exhuasted"); // error
  if (r.outcome === "conflict") console.log(r.receipt); // error
  if (r.outcome === "receipt") console.log(r.receipt.quote.discountt); // error
}
