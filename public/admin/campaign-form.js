// The editor as a campaign's (#/newcampaign, #/editcampaign/ID): the code form's fields, the id in
// the code's field (an id is written as a code is, so the browser module checks it as typed), with
// uses per code and without the automatic promotion (a campaign cannot be one), with its shards
// (changed as a code's are, never back to 1); saved with
// PUT /v1/campaigns/{id} (If-Match, or If-None-Match: * for a new one), then its page opens, where
// its codes are generated, imported and downloaded (campaign.js).
import { $, markInvalid } from "../lib/dom.js";
import { api, campaignPath, definitionOf, explain } from "./api.js";
import { clearMessages, report, showProblem } from "./messages.js";
import { nav, show } from "./views.js";

/**
 * A campaign's `PUT` body from the form's definition: without `code` (the id is the path's) and
 * without `automatic`/`priority` (a code's only), plus `uses_per_code` as typed (a whole number as a number, other
 * text as it is, for the server to refuse with its sentence; empty: left out, the default 1). `shards`
 * is kept as the form has it (the same for a campaign as for a code).
 */
export function campaignBody(definition, usesPerCode) {
  const { code: _id, automatic: _automatic, priority: _priority, ...body } = definition;
  const text = String(usesPerCode ?? "").trim();
  if (text) body.uses_per_code = /^\d+$/.test(text) ? Number(text) : text;
  return body;
}

/** The form's texts that change with what it defines. */
const TEXTS = {
  code: {
    label: "Code", hint: "Letters, digits, _ and -; case does not matter.", cancel: "#/",
    budget: "Optional: the most the code may take off in all, in the currency above.",
    shards: "For a code hotter than one object takes (a flash sale): 2 to 64 spreads its holds and captures over that many, its limits still exact. Empty: 1. Once above 1, it may change up to 8 times, never back to 1.",
  },
  campaign: {
    label: "Campaign id", hint: "Letters, digits, _ and -; case does not matter. Its codes are made on its page once it is saved.",
    cancel: "#/campaigns", budget: "Optional: the most all of its codes may take off together, in the currency above; uses and limits count across them too.",
    shards: "For a campaign hotter than one object takes: 2 to 64 spreads its codes' holds and captures over that many, its limits and each code's uses still exact. Empty: 1. Once above 1, it may change up to 8 times, never back to 1.",
  },
};

/** Shows the form's fields for a code or a campaign (`kind`): `[data-only]` parts, the id's label and the Cancel link. */
export function setFormKind(kind) {
  for (const el of $("code-form").querySelectorAll("[data-only]")) el.hidden = el.dataset.only !== kind;
  const texts = TEXTS[kind];
  $("f-code").labels[0].textContent = texts.label;
  $("f-code-hint").textContent = texts.hint;
  $("f-budget-hint").textContent = texts.budget;
  $("f-shards-hint").textContent = texts.shards;
  $("code-form").querySelector(".actions a[href]").setAttribute("href", texts.cancel);
  $("f-uses-per-code").value = "";
  $("f-uses-per-code-error").textContent = "";
  markInvalid($("f-uses-per-code"), false);
}

/** Opens the campaign's form: empty for a new one, or filled from `GET /v1/campaigns/{id}`. */
export async function openCampaignForm(editor, id, fillForm) {
  if (id) {
    const { json, etag } = await api("GET", campaignPath(id), { what: `campaign ${id}` });
    show("edit", `Edit campaign ${id}`);
    $("edit-heading").textContent = `Edit campaign ${id}`;
    editor.etag = etag;
    fillForm({ ...definitionOf(json), code: json.id ?? id });
    $("f-uses-per-code").value = String(json.uses_per_code ?? "");
    $("f-code").readOnly = true;
  } else {
    show("edit", "New campaign");
    $("edit-heading").textContent = "New campaign";
    $("f-code").readOnly = false;
    fillForm({ discount: { kind: "percent" }, code: "" });
  }
}

/** Saves the campaign the form describes (`definition`: checked by the module already), then opens its page. */
export async function saveCampaign(editor, definition) {
  clearMessages();
  const id = definition.code.toUpperCase();
  const body = campaignBody(definition, $("f-uses-per-code").value);
  const condition = editor.etag ? { "if-match": editor.etag } : { "if-none-match": "*" };
  $("f-uses-per-code-error").textContent = "";
  markInvalid($("f-uses-per-code"), false);
  $("save").disabled = true;
  try {
    const { status } = await api("PUT", campaignPath(id), { body, headers: condition, what: "campaign" });
    nav.notice = `Campaign ${id} is ${status === 201 ? "defined: generate or import its codes below" : "saved"}.`;
    location.hash = `#/campaign/${encodeURIComponent(id)}`;
  } catch (err) {
    if (err.status === 400 && /\bshards\b/.test(err.problem?.detail ?? "")) {
      $("f-shards-error").textContent = err.problem.detail;
      markInvalid($("f-shards"), true);
      $("f-shards").focus();
      showProblem("The campaign was not saved: correct the field marked in red.");
    } else if (err.status === 400 && /uses_per_code/.test(err.problem?.detail ?? "")) {
      $("f-uses-per-code-error").textContent = "Enter a whole number of uses, 1 or more.";
      markInvalid($("f-uses-per-code"), true);
      $("f-uses-per-code").focus();
      showProblem("The campaign was not saved: correct the field marked in red.");
    } else if (err.status === 412) {
      showProblem(editor.etag
        ? explain(412).replace("this code", "this campaign")
        : `A code or campaign ${id} already exists. Choose another id, or edit campaign ${id} from its page.`);
    } else {
      report(err);
    }
  } finally {
    $("save").disabled = false;
  }
}
