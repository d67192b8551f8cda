// A code's own controls on its page (#/code/CODE), as a campaign's page has its own (campaign.js):
// the Active switch with its state in words ("On", "Off") and Archive.
import { $ } from "../lib/dom.js";
import { api, codePath } from "./api.js";
import { clearMessages, confirmArchive, confirmSwitchOff, report, showNotice } from "./messages.js";
import { nav } from "./views.js";
import { refreshWatch, watch } from "./watch.js";

/** Shows the code's state on its switch (from its lookup `json`, read with `etag`). */
export function renderCodeControls(json, etag) {
  if ($("confirm").open) return; // the operator is asked: the switch stays as they left it
  watch.etag = etag;
  watch.active = json.active;
  const input = $("code-switch");
  input.checked = json.active;
  // A campaign's code is switched, edited and archived with its campaign: its page links there.
  const campaign = json.campaign ?? null;
  input.disabled = campaign !== null;
  $("code-archive").hidden = campaign !== null;
  $("code-switch-state").textContent = (json.active ? "On" : "Off") + (campaign ? `, with campaign ${campaign}` : "");
  if (campaign) {
    $("code-edit").href = `#/campaign/${encodeURIComponent(campaign)}`;
    $("code-edit").textContent = "Campaign";
    $("code-edit").setAttribute("aria-label", `Campaign ${campaign}`);
  } else {
    $("code-edit").textContent = "Edit";
  }
}

/** The code's kill switch: off only after a confirmation; sent with the ETag it was read with. */
async function switchCode() {
  const code = watch.name;
  const input = $("code-switch");
  const active = input.checked;
  clearMessages();
  if (!active && !(await confirmSwitchOff("code", code))) {
    input.checked = true;
    input.focus();
    return;
  }
  input.disabled = true;
  // The operator may open another page while the request runs: that page's controls are its own
  // (a campaign's code's switch stays disabled), so only this code's page is set back.
  const here = () => watch.kind === "code" && watch.name === code;
  try {
    const { json } = await api("PATCH", codePath(code), { body: { active }, headers: { "if-match": watch.etag }, what: `code ${code}` });
    showNotice(`${code} is now ${json.active ? "active" : "switched off"}.`);
    if (!here()) return;
    input.checked = json.active;
    $("code-switch-state").textContent = json.active ? "On" : "Off";
    // The switch is done: a refresh that fails says so, and leaves the switch as it now is.
    await refreshWatch().catch(report);
  } catch (err) {
    if (here()) input.checked = !active;
    report(err);
  } finally {
    if (here()) {
      input.disabled = false;
      input.focus();
    }
  }
}

/** Archives the code (buyers can no longer use it; its history stays) and goes back to the catalog. */
async function archiveCode() {
  const code = watch.name;
  clearMessages();
  if (!(await confirmArchive("code", code))) {
    $("code-archive").focus();
    return;
  }
  try {
    await api("DELETE", codePath(code), { what: `code ${code}` });
    nav.notice = `${code} is archived.`;
    location.hash = "#/";
  } catch (err) {
    report(err);
  }
}

/** The code page's controls' events. */
export function wireCodePage() {
  $("code-switch").addEventListener("change", switchCode);
  $("code-archive").addEventListener("click", archiveCode);
}
