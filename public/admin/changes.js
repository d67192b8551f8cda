// A code's or a campaign's change history (GET …/changes): every change of its definition, newest
// first, with what changed, the operator's note and the ETags before and after.
import { $, cell } from "../lib/dom.js";
import { count, listOf, when } from "../lib/format.js";
import { KINDS, readAllPages } from "./api.js";
import { watch } from "./watch.js";

const CHANGES_MAX = 5_000; // changes read for the page
const KIND_WORDS = { switched_on: "Switched on", switched_off: "Switched off", archived: "Archived", restored: "Restored" };

/** A change's kind in words: the first definition is "Defined", a later one "Edited". */
export const changeInWords = (change) => KIND_WORDS[change.change] ?? (change.etag_before ? "Edited" : "Defined");

/** An ETag shortened for the eye: its first 8 hex digits. */
const short = (etag) => (etag ? etag.replaceAll('"', "").slice(0, 8) : "none");

/** Reads every change (up to CHANGES_MAX) of the open code or campaign and lists them, newest first. */
export async function loadChanges() {
  const { kind, name } = watch;
  const all = await readAllPages(`${KINDS[kind].path(name)}/changes`, "changes", { max: CHANGES_MAX, what: kind });
  if (watch.kind !== kind || watch.name !== name) return;
  const body = $("changes").tBodies[0];
  body.replaceChildren();
  for (const change of all.reverse()) {
    const row = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = when(change.at);
    row.append(th);
    cell(row, changeInWords(change));
    cell(row, change.fields.length ? listOf(change.fields) : "—");
    cell(row, change.note ?? "");
    const tags = cell(row, "");
    const code = document.createElement("code");
    code.textContent = `${short(change.etag_before)} → ${short(change.etag_after)}`;
    code.title = `${change.etag_before ?? "none"} → ${change.etag_after}`;
    tags.append(code);
    body.append(row);
  }
  $("changes-count").textContent = all.length
    ? `${count(all.length)} ${all.length === 1 ? "change" : "changes"}, newest first.`
    : "No changes recorded (the definition predates the change history).";
}
