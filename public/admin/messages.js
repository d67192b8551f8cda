// The console's messages: the problem and notice live regions, and the confirmation dialog.
import { $ } from "../lib/dom.js";
import { ApiError, KINDS } from "./api.js";

export function showProblem(text) { $("problem").textContent = text ?? ""; }
export function showNotice(text) { $("notice").textContent = text ?? ""; }
export function clearMessages() { showProblem(""); showNotice(""); }

/** Shows an error as a sentence; a 401 has already signed out. */
export function report(err) {
  if (err instanceof ApiError) {
    if (err.status !== 401) showProblem(err.message);
  } else {
    showProblem(`Something went wrong in the console: ${err?.message ?? err}. Reload the page and try again.`);
  }
}

/** Asks for confirmation in a modal dialog; resolves to true when confirmed. */
export function confirmAction(heading, text, ok) {
  const dialog = $("confirm");
  $("confirm-heading").textContent = heading;
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = ok;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
  });
}

/** Asks before switching a code or a campaign (`kind`) off. */
export const confirmSwitchOff = (kind, name) => confirmAction(
  `Switch ${name} off?`,
  `Buyers' quotes, holds and captures of ${KINDS[kind].reach(name)} are refused at once (holds already made still capture). You can switch it on again.`,
  "Switch off",
);

/** Asks before archiving a code or a campaign (`kind`). */
export const confirmArchive = (kind, name) => confirmAction(
  `Archive ${name}?`,
  kind === "campaign"
    ? `Every code of ${name} reads as unknown to buyers from now on; its counts and history stay, and Restore brings it back.`
    : `Buyers can no longer use ${name}; its history stays, and Restore brings it back with its counts.`,
  "Archive",
);
