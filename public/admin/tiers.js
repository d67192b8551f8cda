// The tiered discount's rows in the editor (#/edit): rendered from the form's values, read back as
// typed, one added or removed at a time (1 to 10). Each row is a fieldset "Tier N" of labelled
// fields whose ids (f-tier-from-N, f-tier-off-N, f-tier-value-N, f-tier-max-N) are the ones
// definition.js maps a refusal's path to ("definition.discount.tiers[1].from" → f-tier-from-1).
import { $ } from "../lib/dom.js";
import { emptyTier, MAX_TIERS } from "./deals.js";

const PARTS = ["from", "off", "value", "max"];
const rows = () => [...$("f-tiers").querySelectorAll(".tier")];

/** The rows' values as typed: [{from, off, value, max}]. */
export const readTiers = () => rows().map((row) => Object.fromEntries(PARTS.map((part) => [part, row.querySelector(`[data-part="${part}"]`).value])));

/** Shows `tiers` as rows, numbered from 1, their labels for the basis `by`. */
export function renderTiers(tiers, by) {
  const box = $("f-tiers");
  box.replaceChildren();
  tiers.forEach((tier, i) => {
    const row = $("tier-row").content.firstElementChild.cloneNode(true);
    row.querySelector("legend").textContent = `Tier ${i + 1}`;
    for (const part of PARTS) {
      const id = `f-tier-${part}-${i}`;
      const input = row.querySelector(`[data-part="${part}"]`);
      input.id = id;
      input.value = tier[part];
      row.querySelector(`[data-for="${part}"]`).htmlFor = id;
      row.querySelector(`[data-error="${part}"]`).id = `${id}-error`;
      const hint = row.querySelector(`[data-hint="${part}"]`);
      if (hint) hint.id = `${id}-hint`;
      input.setAttribute("aria-describedby", hint ? `${id}-hint ${id}-error` : `${id}-error`);
    }
    const remove = row.querySelector("[data-remove]");
    remove.textContent = `Remove tier ${i + 1}`;
    remove.dataset.index = String(i);
    remove.disabled = tiers.length === 1;
    box.append(row);
  });
  labelTiers(by);
  $("tier-add").disabled = tiers.length >= MAX_TIERS;
}

/** Each row's labels for the basis (a subtotal or a count of items) and its kind (a percent or an amount). */
export function labelTiers(by) {
  for (const row of rows()) {
    row.querySelector('[data-for="from"]').textContent = by === "quantity" ? "From (items)" : "From (subtotal)";
    row.querySelector('[data-part="from"]').inputMode = by === "quantity" ? "numeric" : "decimal";
    const fixed = row.querySelector('[data-part="off"]').value === "fixed";
    row.querySelector('[data-for="value"]').textContent = fixed ? "Amount off" : "Percent off";
  }
}

/** "Add a tier" and each row's "Remove": the rows shown again, the focus kept in the list, then `changed()`. */
export function wireTiers(changed) {
  $("tier-add").addEventListener("click", () => {
    const tiers = readTiers();
    if (tiers.length >= MAX_TIERS) return;
    renderTiers([...tiers, emptyTier()], $("f-tier-by").value);
    $(`f-tier-from-${tiers.length}`).focus();
    changed();
  });
  $("f-tiers").addEventListener("click", (event) => {
    const button = event.target.closest("[data-remove]");
    if (!button || button.disabled) return;
    const index = Number(button.dataset.index);
    const tiers = readTiers();
    tiers.splice(index, 1);
    renderTiers(tiers, $("f-tier-by").value);
    $(`f-tier-from-${Math.min(index, tiers.length - 1)}`).focus();
    changed();
  });
}
