// The budget bar on a code's or a campaign's page: spent, held and left, as widths of one bar (spent
// solid, held striped, left empty: told apart without colour) and as words in its legend, the
// sentence a screen reader reads (the bar itself is hidden from it).
import { $ } from "../lib/dom.js";
import { budgetInParts, budgetOf } from "./counts.js";

/** Shows the budget of `summary` (a code's lookup or a campaign's summary), or hides the card without one. */
export function renderBudgetBar(summary) {
  const parts = budgetOf(summary);
  $("budget-bar").hidden = !parts;
  if (!parts) return;
  const bar = $("budget-bar").querySelector(".budget-bar");
  bar.querySelector(".budget-spent").style.width = `${parts.shares.spent / 10}%`;
  bar.querySelector(".budget-held").style.width = `${parts.shares.held / 10}%`;
  const [spent, held, left] = budgetInParts(parts);
  $("budget-bar-spent").textContent = spent;
  $("budget-bar-held").textContent = held;
  $("budget-bar-left").textContent = left;
}
