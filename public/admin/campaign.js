// A campaign's own controls on its page: generating codes, the kill switch, Archive and the codes'
// export.
import { $, saveFile } from "../lib/dom.js";
import { count } from "../lib/format.js";
import { api, ApiError, campaignPath, explain, token } from "./api.js";
import { clearMessages, confirmArchive, confirmSwitchOff, report, showNotice, showProblem } from "./messages.js";
import { nav } from "./views.js";
import { refreshWatch, watch } from "./watch.js";

export async function generateCodes(event) {
  event.preventDefault();
  const id = watch.name;
  const countText = $("g-count").value.trim();
  if (!/^\d+$/.test(countText)) {
    showProblem("Count: enter a whole number of codes, 1 to 10,000.");
    $("g-count").focus();
    return;
  }
  const body = { count: Number(countText) };
  if ($("g-pattern").value.trim()) body.pattern = $("g-pattern").value.trim();
  $("generate").disabled = true;
  clearMessages();
  try {
    // One key per click: a retry of this call (the network failed) would answer the same codes.
    const key = `console-${crypto.randomUUID()}`;
    const { json } = await api("POST", `${campaignPath(id)}/codes`, { body, headers: { "idempotency-key": key }, what: `campaign ${id}` });
    await refreshWatch();
    $("generated").textContent = `Generated ${count(json.created)} codes, for example ${json.codes.slice(0, 3).join(", ")}.`;
    showNotice(`Generated ${count(json.created)} codes for ${id}.`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) showProblem(`The codes were not generated: ${err.problem?.detail ?? err.message}`);
    else report(err);
  } finally {
    $("generate").disabled = false;
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
    showNotice(`${id} is now ${json.active ? "active" : "switched off"}.`);
    await refreshWatch();
  } catch (err) {
    report(err);
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
  let res;
  try {
    res = await fetch(`${campaignPath(id)}/codes`, { headers: { authorization: `Bearer ${token()}`, accept: "text/csv" }, cache: "no-store" });
  } catch {
    showProblem(explain(0));
    return;
  }
  if (!res.ok) {
    showProblem(explain(res.status, null, `campaign ${id}`));
    return;
  }
  saveFile(await res.text(), `${id}-codes.csv`);
}
