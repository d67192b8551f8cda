// A campaign's own controls on its page: generating codes (count, pattern, characters), importing a
// CSV file of codes, the codes' export, the kill switch and Archive. Each control's result or refusal
// is written beside its button (a live region), and every stale one is cleared when another starts.
import { $, saveFile } from "../lib/dom.js";
import { count, plural } from "../lib/format.js";
import { api, ApiError, campaignPath, explain, token } from "./api.js";
import { clearMessages, confirmArchive, confirmSwitchOff, report } from "./messages.js";
import { nav } from "./views.js";
import { refreshWatch, watch } from "./watch.js";

/** The result lines beside the campaign's buttons. */
const RESULTS = ["generated", "imported", "campaign-csv-result", "campaign-switch-result"];

/** Writes `text` beside its button (`id`: one of RESULTS), as a success (`ok`) or a refusal (`error`); clears the others. */
function result(id, text, state = "ok") {
  for (const other of RESULTS) {
    if (other === id) continue;
    $(other).textContent = "";
    delete $(other).dataset.state;
  }
  $(id).textContent = text;
  $(id).dataset.state = state;
  // In view beside its button, even when the button sat at the screen's edge.
  if (state) $(id).scrollIntoView({ block: "nearest" });
}

/** Clears every result line, and sets the Edit link (a campaign's page opens). */
export function openCampaignControls(id) {
  for (const line of RESULTS) {
    $(line).textContent = "";
    delete $(line).dataset.state;
  }
  $("campaign-edit").href = `#/editcampaign/${encodeURIComponent(id)}`;
  $("import-form").reset();
}

/** An API refusal in the words for a result line. */
function refusal(err, what) {
  if (err instanceof ApiError && err.status === 409 && err.problem?.type === "/problems/code_exists") {
    return `${what}: ${err.problem.detail ?? "a code exists already"}. Nothing was added; remove that code and try again.`;
  }
  if (err instanceof ApiError && err.status === 400) return `${what}: ${err.problem?.detail ?? err.message}.`;
  if (err instanceof ApiError) return err.message;
  return `${what}: ${err?.message ?? err}.`;
}

/** Adds codes to the campaign (`body`: a count and a pattern, or codes), one Idempotency-Key a click. */
async function addCodes(id, body) {
  // One key per click: a retry of this call (the network failed) would answer the same codes.
  const key = `console-${crypto.randomUUID()}`;
  const { json } = await api("POST", `${campaignPath(id)}/codes`, { body, headers: { "idempotency-key": key }, what: `campaign ${id}` });
  await refreshWatch();
  return json;
}

const some = (codes) => codes.slice(0, 3).join(", ");

export async function generateCodes(event) {
  event.preventDefault();
  clearMessages();
  const id = watch.name;
  const countText = $("g-count").value.trim();
  if (!/^\d+$/.test(countText)) {
    result("generated", "Count: enter a whole number of codes, 1 to 10,000.", "error");
    $("g-count").focus();
    return;
  }
  const body = { count: Number(countText) };
  if ($("g-pattern").value.trim()) body.pattern = $("g-pattern").value.trim();
  if ($("g-charset").value.trim()) body.charset = $("g-charset").value.trim();
  $("generate").disabled = true;
  result("generated", "Generating…", "");
  try {
    const json = await addCodes(id, body);
    result("generated", `Generated ${count(json.created)} ${plural(json.created, "code", "codes")}, for example ${some(json.codes)}.`);
  } catch (err) {
    if (err.status === 401) return;
    result("generated", refusal(err, "The codes were not generated"), "error");
  } finally {
    $("generate").disabled = false;
  }
}

/** The codes of a CSV file: the first column of each row, trimmed, a header row `code` left out (papaparse reads it). */
export async function codesFromCsv(text) {
  const { default: Papa } = await import("./vendor/papaparse.min.js");
  const { data } = Papa.parse(text.replace(/^\uFEFF/, ""), { skipEmptyLines: "greedy" });
  const codes = data.map((row) => String(row[0] ?? "").trim()).filter(Boolean);
  return /^codes?$/i.test(codes[0] ?? "") ? codes.slice(1) : codes;
}

/** Imports the codes of the CSV file chosen. */
export async function importCodes(event) {
  event.preventDefault();
  clearMessages();
  const id = watch.name;
  const file = $("i-file").files?.[0];
  if (!file) {
    result("imported", "Choose a CSV file of codes first.", "error");
    $("i-file").focus();
    return;
  }
  $("import").disabled = true;
  try {
    const codes = await codesFromCsv(await file.text());
    if (!codes.length) {
      result("imported", `${file.name} holds no codes: put one code a row, in the first column.`, "error");
      return;
    }
    result("imported", `Importing ${count(codes.length)} ${plural(codes.length, "code", "codes")}…`, "");
    const json = await addCodes(id, { codes });
    result("imported", `Imported ${count(json.created)} ${plural(json.created, "code", "codes")} from ${file.name}, for example ${some(json.codes)}.`);
    $("import-form").reset();
  } catch (err) {
    if (err.status === 401) return;
    result("imported", refusal(err, `${file.name} was not imported`), "error");
  } finally {
    $("import").disabled = false;
  }
}

/** The campaign's kill switch (with confirmation before switching off), sent with If-Match. */
export async function switchCampaign() {
  const id = watch.name;
  const active = !watch.active;
  clearMessages();
  if (!active && !(await confirmSwitchOff("campaign", id))) {
    $("campaign-switch").focus();
    return;
  }
  try {
    const { json } = await api("PATCH", campaignPath(id), { body: { active }, headers: { "if-match": watch.etag }, what: `campaign ${id}` });
    await refreshWatch();
    result("campaign-switch-result", `${id} is now ${json.active ? "active" : "switched off"}.`);
  } catch (err) {
    if (err.status !== 401) result("campaign-switch-result", refusal(err, `${id} was not switched`), "error");
  }
  $("campaign-switch").focus();
}

/** Archives the campaign (its codes then read as unknown; counts and history stay). */
export async function archiveCampaign() {
  const id = watch.name;
  clearMessages();
  if (!(await confirmArchive("campaign", id))) return;
  try {
    await api("DELETE", campaignPath(id), { what: `campaign ${id}` });
    nav.notice = `${id} is archived.`;
    location.hash = "#/campaigns";
  } catch (err) {
    report(err);
  }
}

/** The campaign's streamed CSV, fetched with the token in its header (never a URL), then saved. */
export async function downloadCampaignCsv() {
  const id = watch.name;
  clearMessages();
  result("campaign-csv-result", "Downloading…", "");
  let res;
  try {
    res = await fetch(`${campaignPath(id)}/codes`, { headers: { authorization: `Bearer ${token()}`, accept: "text/csv" }, cache: "no-store" });
  } catch {
    result("campaign-csv-result", explain(0), "error");
    return;
  }
  if (!res.ok) {
    result("campaign-csv-result", explain(res.status, null, `campaign ${id}`), "error");
    return;
  }
  const text = await res.text();
  const name = `${id}-codes.csv`;
  saveFile(text, name);
  const rows = Math.max(0, text.split("\n").filter((line) => line.trim()).length - 1);
  result("campaign-csv-result", `Saved ${name}: ${count(rows)} ${plural(rows, "code", "codes")} with their uses and holds.`);
}
