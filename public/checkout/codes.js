// The promo codes typed: the code fields ("Add another code", "Remove"), each code's lookup (its
// definition fetched and parsed once), and the Worker's answer about a named customer.
import { PromoCode, definitionFields, isBasketRejection, normalizeCode } from '../pkg/promocodes.js';
import { el, markInvalid } from '../lib/dom.js';
import { capitalise, ordinalWord } from '../lib/format.js';
import {
  codeFields, codes, customerKey, customers, CUSTOMER_CHECK_DELAY_MS, LOOKUP_DELAY_MS, MAX_CODES, state, ui,
} from './page.js';
import { malformedSentence, problemSentence } from './sentences.js';
import { readBasket, render, updateButtons } from './summary.js';
import { post } from './worker.js';
import { onInput, requote } from './quote.js';
import { reportTry } from './tries.js';

// ---- the code fields: "Add another code" and "Remove" ----

/** Adds an empty code field after the last one (up to MAX_CODES) and moves focus to it. */
export function addCodeField() {
  if (state.phase !== 'shopping' || codeFields.length >= MAX_CODES) return;
  state.fieldsMade += 1;
  const id = `code-more-${state.fieldsMade}`;
  const label = el('label', { for: id });
  const input = el('input', {
    id,
    class: 'code-input',
    name: id,
    type: 'text',
    autocomplete: 'off',
    autocapitalize: 'characters',
    spellcheck: 'false',
    maxlength: '80',
    placeholder: 'e.g. SHIPFREE',
    'aria-describedby': `${id}-status`,
  });
  const remove = el('button', { type: 'button', class: 'secondary small remove' }, 'Remove');
  const status = el('p', { class: 'code-status', id: `${id}-status` });
  const row = el('div', { class: 'code-row added' }, label, el('div', { class: 'code-line' }, input, remove), status);
  const field = { input, status, row, remove, label };
  remove.addEventListener('click', () => removeCodeField(field));
  codeFields.push(field);
  ui.moreCodes.append(row);
  nameFields();
  updateButtons();
  input.focus();
}

// Removes an added code field; focus goes to the field before it, and the order is quoted again.
function removeCodeField(field) {
  const index = codeFields.indexOf(field);
  if (state.phase !== 'shopping' || index < 1) return;
  codeFields.splice(index, 1);
  field.row.remove();
  clearTimeout(state.lookupTimers.get(field.input));
  state.lookupTimers.delete(field.input);
  nameFields();
  updateButtons();
  codeFields[index - 1].input.focus();
  onInput();
}

/** Empties the code fields for a new order: the added ones removed, the first one emptied. */
export function clearCodes() {
  for (const field of codeFields.splice(1)) {
    field.row.remove();
    clearTimeout(state.lookupTimers.get(field.input));
    state.lookupTimers.delete(field.input);
  }
  ui.code.value = '';
  setStatus(codeFields[0], '');
  updateButtons();
}

// Each added field's label and its Remove button's name follow its place: "Second promo code".
function nameFields() {
  codeFields.forEach((field, i) => {
    if (!field.label) return;
    field.label.textContent = `${capitalise(ordinalWord(i + 1))} promo code`;
    field.remove.setAttribute('aria-label', `Remove the ${ordinalWord(i + 1)} promo code`);
  });
}

/** The sentence next to a code's field ('' for none); `kind` styles it, and marks the field invalid. */
export function setStatus(field, text, kind = '') {
  field.status.textContent = text;
  field.status.dataset.kind = kind;
  markInvalid(field.input, kind === 'refused');
}

/** The codes typed, normalised, in the fields' order (malformed or empty ones left out). */
export const typedCodes = () =>
  codeFields.map((f) => (f.input.value.trim() === '' ? null : normalise(f.input.value).code)).filter(Boolean);

/** A typed text as a code ({ code }), or why it is not one ({ error: a sentence }): the core's rule. */
export function normalise(text) {
  try {
    const code = normalizeCode(text);
    return typeof code === 'string' ? { code } : { error: malformedSentence(null) };
  } catch (err) {
    return { error: malformedSentence(err?.problem) };
  }
}

// ---- looking a code up ----

/**
 * Whether the Worker must be asked about this customer: the code is for named customers, or limits
 * each customer's uses. The browser knows neither the audience nor the customer's count.
 */
export const needsCustomerCheck = (entry) => entry.assigned || Boolean(entry.definition.limits?.per_customer);

/**
 * A campaign's code used up, though the campaign may have uses left: the module prices the campaign's
 * definition and cannot see the code's own cap; the lookup's `remaining` (the core's, on the Worker) can.
 */
export const campaignCodeUsedUp = (entry) => entry.campaign !== null && entry.remaining === 0;

/**
 * Fetches a code's definition (once per normalised code, or again when `force`d), parses it once,
 * then re-quotes if it is still the code typed.
 */
export async function lookup(code, { force = false } = {}) {
  const previous = codes.get(code);
  if (previous && !force && previous.status !== 'error') return;
  if (previous?.status === 'pending') return;
  codes.set(code, { status: 'pending' });
  let entry;
  try {
    // A forced lookup (after the Worker refused or the code changed) skips the browser's copy; the Worker's
    // edge copy is purged whenever the code is redefined or reaches or leaves its cap.
    const res = await fetch(`/v1/codes/${encodeURIComponent(code)}`, {
      headers: { accept: 'application/json' },
      cache: force ? 'no-store' : 'default',
    });
    const body = await res.json().catch(() => ({}));
    if (res.status === 404) entry = { status: 'unknown' };
    else if (!res.ok) entry = { status: 'error', message: `${code} could not be looked up. ${problemSentence(res.status, body)}` };
    else entry = toEntry(body);
  } catch (err) {
    entry = { status: 'error', message: `${code} could not be looked up. ${problemSentence(0, { detail: err.message })}` };
  }
  previous?.promo?.free(); // the definition this one replaces, parsed once and now done with
  codes.set(code, entry);
  if (entry.status === 'found') reportTry(code);
  if (typedCodes().includes(code)) requote();
}

/** Looks the code up again, past every cache. */
export const refresh = (code) => lookup(code, { force: true });

// A fetched definition, parsed once. Only the fields of the core's Definition go to the module
// (GET /v1/codes/{code} adds `assigned`, `usage`, `remaining`, which the module would refuse).
function toEntry(body) {
  const definition = {};
  for (const field of definitionFields()) if (body[field] !== undefined && body[field] !== null) definition[field] = body[field];
  let promo;
  try {
    promo = PromoCode.parse(definition);
  } catch (err) {
    return { status: 'error', message: `${definition.code ?? 'This code'} cannot be used on this page (${err.message}).` };
  }
  return {
    status: 'found',
    promo,
    definition,
    assigned: Boolean(body.assigned),
    usage: { total: body.usage?.total ?? 0, held: body.usage?.held ?? 0, discounted: body.usage?.discounted ?? null },
    // A campaign's code: the module prices the campaign's definition, without the code's own cap
    // (`uses_per_code`); the lookup's `remaining` (the core's, on the Worker) counts it.
    campaign: body.campaign ?? null,
    remaining: body.remaining ?? null,
  };
}

/** Looks up the code typed in `input` (a code field) once the buyer pauses; each field debounces alone. */
export function scheduleLookup(input = ui.code) {
  clearTimeout(state.lookupTimers.get(input));
  const normal = normalise(input.value);
  if (!normal.code) return;
  const known = codes.get(normal.code);
  if (known && known.status !== 'error') return;
  state.lookupTimers.set(input, setTimeout(() => lookup(normal.code), LOOKUP_DELAY_MS));
}

// ---- asking the Worker about a named customer ----

/** One pending check per code: a customer id still being typed replaces the code's previous check. */
export function scheduleCustomerCheck(code, customer) {
  clearTimeout(state.customerTimers.get(code));
  state.customerTimers.set(code, setTimeout(() => checkCustomer(code, customer), CUSTOMER_CHECK_DELAY_MS));
}

// Asks the Worker once whether `customer` may use `code` (POST /demo/quote: the page holds no token).
async function checkCustomer(code, customer) {
  const key = customerKey(code, customer);
  if (customers.has(key)) return;
  // Typed over while the check waited: the code or the customer is no longer the one to check.
  if (!typedCodes().includes(code) || ui.customer.value.trim() !== customer) return;
  const entry = codes.get(code);
  const basket = readBasket();
  if (entry?.status !== 'found' || basket.error || basket.empty) return;
  customers.set(key, { status: 'pending' });
  const { status, answer } = await post('/demo/quote', { code, ...basket.request, customer });
  let known;
  if (status === 200) known = { status: 'known', perCustomer: 0, refusal: null };
  else if (status === 422 && answer.rejection === 'customer_limit_reached') {
    // The customer's count is at the limit: the local quote refuses the same way from now on.
    known = { status: 'known', perCustomer: entry.definition.limits?.per_customer ?? 1, refusal: null };
  } else if (status === 422 && isBasketRejection(answer.rejection)) {
    // Decided by the basket: the rules about the customer, checked before it, passed.
    known = { status: 'known', perCustomer: 0, refusal: null };
  } else if (status === 422 && answer.rejection) {
    known = { status: 'known', perCustomer: 0, refusal: { rejection: answer.rejection, detail: answer.detail ?? '' } };
  } else known = { status: 'error', message: `${code} could not be checked for ${customer}. ${problemSentence(status, answer)}` };
  if (known.status === 'error') customers.delete(key); // asked again on the next change
  else customers.set(key, known);
  const current = typedCodes().includes(code) && ui.customer.value.trim() === customer;
  if (!current) return;
  if (known.status === 'error') {
    render({ basket, message: known.message, kind: 'error', announce: known.message });
  } else requote();
}
