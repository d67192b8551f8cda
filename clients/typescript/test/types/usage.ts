// A shop server's use of promocodes-client, imported by its name as a shop imports it: `tsc --noEmit`
// must accept every line (test/types.test.mjs). The assignments pin what each answer is typed as.
import { createClient, PromocodesError } from "promocodes-client";
import type { Outcome, Problem, Schemas } from "promocodes-client";

const pc = createClient({ baseUrl: "https://promo.example", token: "t" });
const total: Schemas["MoneyInput"] = { amount: "80.00", currency: "EUR" };

export async function shop(): Promise<void> {
  const r = await pc.capture({ code: "SAVE10", total, customer: "c1" }, { idempotencyKey: "pi_1" });
  if (r.outcome === "receipt") {
    const discount: Schemas["Money"] = r.receipt.quote.discount;
    const replayed: boolean = r.receipt.replayed;
    console.log(discount.amount, replayed);
  } else if (r.outcome === "rejection") {
    const why: Schemas["RejectionCode"] = r.rejection.rejection;
    if (why === "exhausted" || why === "below_minimum") console.log(r.rejection.detail);
  } else {
    const seconds: number = r.retryAfter;
    const problem: Problem = r.problem;
    console.log(seconds, problem.type);
  }

  // A stack answers the stack's shapes.
  const stack = await pc.capture({ codes: ["SAVE10", "SHIPFREE"], lines: [{ sku: "MUG", quantity: 2, unit_price: total }], shipping: total }, { idempotencyKey: "pi_2" });
  if (stack.outcome === "receipt") console.log(stack.receipt.receipts.map((x) => x.quote.code));
  const q: Outcome<Schemas["StackQuote"]> = await pc.quote({ codes: ["A", "B"], basket: { total } });
  if (q.outcome === "rejection") console.log(q.rejection.rejections?.map((x) => x.code));
  const h = await pc.hold({ code: "SAVE10", total, ttl_seconds: 600 }, { idempotencyKey: "pi_3" });
  if (h.outcome === "receipt") console.log(h.receipt.expires_at);
  const rel = await pc.release({ code: "SAVE10", key: "pi_1", reason: "refunded" });
  if (rel.outcome === "receipt") console.log(rel.receipt.was);

  // Everything else answers its body, or throws.
  try {
    const code = await pc.codes.put("SAVE10", { code: "SAVE10", discount: { kind: "percent", percent: "10" }, limits: { total: 100 } }, { ifNoneMatch: "*" });
    const active: boolean = code.active;
    const looked: Schemas["PublicCode"] = await pc.codes.get("SAVE10");
    const page = await pc.codes.list({ prefix: "SAVE", limit: 10 });
    const next: string | null = page.next;
    await pc.codes.patch("SAVE10", { active: false }, { ifMatch: pc.etag(looked) });
    await pc.codes.archive("SAVE10");
    const campaign = await pc.campaigns.put("BF", { discount: { kind: "fixed", amount: total }, uses_per_code: 1 });
    const created = await pc.campaigns.generate(campaign.id, { count: 100, pattern: "BF-####-####" }, { idempotencyKey: "b1" });
    const codes: string[] = created.codes;
    const stats = await pc.campaigns.get("BF");
    const listed = await pc.campaigns.codes("BF", { limit: 5 });
    const csv: ReadableStream<Uint8Array> = await pc.campaigns.csv("BF");
    console.log(active, looked.usage.total, next, codes, stats.codes.count, listed.codes[0]?.uses, csv.locked);
  } catch (err) {
    if (err instanceof PromocodesError) {
      const status: number = err.status;
      console.log(status, err.problem?.type, err.problem?.detail);
    }
  }
}
