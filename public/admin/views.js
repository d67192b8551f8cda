// Views and routing (#/, #/campaigns, #/new, #/edit/CODE, #/code/CODE, #/campaign/ID, #/newcampaign,
// #/editcampaign/ID, #/webhooks,
// #/webhooks/ID), signing in
// and out.
import { $ } from "../lib/dom.js";
import { api, token, TOKEN_KEY } from "./api.js";
import { clearMessages, report, showNotice } from "./messages.js";
import { catalog, openCatalog } from "./catalog.js";
import { openEditor } from "./editor.js";
import { openWatch } from "./watch.js";
import { openWebhooks } from "./webhooks.js";

const VIEWS = ["signin", "catalog", "edit", "code", "webhooks"];

/**
 * What the open view leaves behind when another opens (`leave`: its timers and charts), and a notice
 * to show once the next view is open (`notice`: after a save moves to the code's page).
 */
export const nav = { leave: () => {}, notice: "" };

export function show(view, title) {
  for (const name of VIEWS) $(`view-${name}`).hidden = name !== view;
  document.title = `${title} · promocodes console`;
  const signedIn = Boolean(token());
  $("nav").hidden = !signedIn;
  $("sign-out").hidden = !signedIn;
  // The page each link opens: the catalog of all (#/) or of campaigns only (#/campaigns), a new code.
  const here = view === "catalog" ? (catalog.kind === "campaigns" ? "#/campaigns" : "#/")
    : view === "edit" && location.hash === "#/new" ? "#/new" : view === "webhooks" ? "#/webhooks" : null;
  for (const link of $("nav").querySelectorAll("a")) {
    if (link.getAttribute("href") === here) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
}

function leave() {
  nav.leave();
  nav.leave = () => {};
}

export async function route() {
  const focused = document.activeElement;
  leave();
  clearMessages();
  if (nav.notice) {
    showNotice(nav.notice);
    nav.notice = "";
  }
  if (!token()) {
    show("signin", "Sign in");
    $("token").focus();
    return;
  }
  const hash = location.hash || "#/";
  const [, page, rawCode] = hash.match(/^#\/([a-z]*)\/?(.*)$/) ?? [];
  const code = rawCode ? decodeURIComponent(rawCode) : "";
  try {
    if (page === "new") await openEditor(null);
    else if (page === "newcampaign") await openEditor(null, "campaign");
    else if (page === "editcampaign" && code) await openEditor(code, "campaign");
    else if (page === "edit" && code) await openEditor(code);
    else if (page === "code" && code) await openWatch("code", code);
    else if (page === "campaign" && code) await openWatch("campaign", code);
    else if (page === "webhooks") await openWebhooks(code);
    else await openCatalog(page === "campaigns" ? "campaigns" : "all");
  } catch (err) {
    report(err);
  }
  // The new view takes the focus, unless the operator already moved it while the view loaded (into
  // the view, or on to a link of the bar: an Enter there must open what it names).
  const active = document.activeElement;
  const visible = active && active !== document.body && !active.closest("[hidden]");
  const moved = visible && (active !== focused || $("main").contains(active));
  if (!moved) $("main").focus({ preventScroll: true });
}

export async function signIn(event) {
  event.preventDefault();
  const entered = $("token").value.trim();
  $("signin-error").textContent = "";
  $("token").removeAttribute("aria-invalid");
  if (!entered) {
    $("signin-error").textContent = "Enter the admin token.";
    $("token").setAttribute("aria-invalid", "true");
    return;
  }
  try {
    await api("GET", "/v1/codes?limit=1", { auth: entered });
  } catch (err) {
    const sentence = err.status === 401
      ? "That admin token was not accepted. Check it (the Worker's ADMIN_TOKEN) and try again."
      : err.message;
    $("signin-error").textContent = sentence;
    $("token").setAttribute("aria-invalid", "true");
    $("token").focus();
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, entered);
  $("token").value = "";
  await route();
}

export function signOut(navigate = true) {
  sessionStorage.removeItem(TOKEN_KEY);
  leave();
  if (navigate) {
    clearMessages();
    show("signin", "Sign in");
    showNotice("Signed out: the token is forgotten.");
    $("token").focus();
  } else {
    show("signin", "Sign in");
  }
}
