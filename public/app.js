// The checkout page: live quotes from the promocodes WebAssembly module, capture through the Worker.
//
// Money never goes through a JS number: prices are decimal strings, the basket total is summed in
// integer minor units with BigInt, and every discount is computed by the wasm module (the core's maths).
// A code's definition is fetched once per normalised code; from then on every keystroke and quantity
// change re-quotes in the browser, with no network call. Codes assigned to named customers are quoted by
// the Worker (the public definition does not say who), with the customer.
import init, { quote as wasmQuote, normalizeCode } from './pkg/promocodes.js';

const LOOKUP_DELAY_MS = 250;
const SERVER_QUOTE_DELAY_MS = 250;
// Minor-unit digits of the currencies this page can sum; the core's ISO 4217 table decides the rest.
const MINOR_DIGITS = { EUR: 2, USD: 2, GBP: 2, CHF: 2, SEK: 2, JPY: 0 };
// Fields of the core's definition shape; the public view adds `assigned`, the Worker adds `usage`, `remaining`.
const DEFINITION_FIELDS = ['code', 'discount', 'limits', 'starts_at', 'ends_at', 'minimum'];

const $ = (id) => document.getElementById(id);
const ui = {
  basket: $('basket'),
  code: $('code'),
  customer: $('customer'),
  quote: $('quote'),
  total: $('total'),
  discount: $('discount'),
  payable: $('payable'),
  message: $('quote-message'),
  pay: $('pay'),
  newOrder: $('new-order'),
  outcome: $('outcome'),
};
const currency = ui.basket.dataset.currency;
const digits = MINOR_DIGITS[currency];

// normalised code -> { status: 'pending' } | { status: 'found', definition, assigned, usage, remaining }
//                    | { status: 'unknown' } | { status: 'error', message }
const codes = new Map();
// `${code}\n${customer}` -> that customer's uses of the code, as last reported by a receipt.
const customerUses = new Map();

const state = {
  ready: false,
  current: null, // what Pay would capture: { code, total, customer, quote } when the quote is ok
  attempt: null, // the idempotency key of this checkout attempt, made on the first Pay
  paying: false,
  paid: false,
  lookupTimer: 0,
  serverQuoteTimer: 0,
  serverQuoteSeq: 0,
};

// ---- money as decimal strings ----

function toMinor(text) {
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!match || (match[2] ?? '').length > digits) throw new Error(`not a ${currency} amount: ${text}`);
  return BigInt(match[1]) * 10n ** BigInt(digits) + BigInt((match[2] ?? '').padEnd(digits, '0') || '0');
}

function fromMinor(minor) {
  if (digits === 0) return minor.toString();
  const text = minor.toString().padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

const show = (money) => `${money.currency} ${money.amount}`;

// Reads the basket: line amounts and the total as a Money, or an error message for a bad quantity.
function readBasket() {
  let total = 0n;
  let error = null;
  for (const row of ui.basket.querySelectorAll('tbody tr')) {
    const input = row.querySelector('input.qty');
    const line = row.querySelector('.line');
    const text = input.value.trim();
    if (!/^\d{1,2}$/.test(text)) {
      error = `the quantity of ${row.querySelector('th').textContent} must be a whole number from 0 to 99`;
      input.setAttribute('aria-invalid', 'true');
      line.textContent = '–';
      continue;
    }
    input.removeAttribute('aria-invalid');
    const amount = toMinor(row.dataset.price) * BigInt(text);
    line.textContent = `${currency} ${fromMinor(amount)}`;
    total += amount;
  }
  return { total: { amount: fromMinor(total), currency }, error };
}

// ---- rendering ----

function render({ total, discount = null, payable = null, message, kind, current = null }) {
  ui.total.textContent = total ? show(total) : '–';
  ui.discount.textContent = discount ? `− ${show(discount)}` : '–';
  ui.payable.textContent = payable ? show(payable) : total ? show(total) : '–';
  ui.message.textContent = message;
  ui.quote.dataset.state = kind;
  state.current = current;
  updatePay();
}

function updatePay() {
  const payable = state.current?.quote.payable;
  ui.pay.disabled = !state.ready || state.paying || state.paid || !state.current;
  ui.pay.textContent = state.paying ? 'Paying…' : state.paid ? 'Paid' : payable ? `Pay ${show(payable)}` : 'Pay';
}

function showOutcome(kind, html) {
  ui.outcome.dataset.kind = kind;
  ui.outcome.replaceChildren(...html);
}

function clearOutcome() {
  ui.outcome.dataset.kind = 'none';
  ui.outcome.replaceChildren();
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

function describe(definition) {
  const d = definition.discount;
  let text = d.kind === 'percent' ? `${d.percent}% off` : `${show(d.amount)} off`;
  if (d.kind === 'percent' && d.max) text += ` (at most ${show(d.max)})`;
  return text;
}

// ---- quoting ----

function normalise(text) {
  try {
    const code = normalizeCode(text);
    return typeof code === 'string' ? { code } : { error: 'this is not a valid code' };
  } catch (error) {
    return { error: error.message.replace(/^code: /, "") };
  }
}

// Re-quotes from what the page knows. Synchronous (no network) unless the code is assigned.
function requote() {
  if (!state.ready) return;
  clearTimeout(state.serverQuoteTimer);
  state.serverQuoteSeq += 1;
  const { total, error } = readBasket();
  if (error) return render({ total: null, message: error, kind: 'invalid' });

  const text = ui.code.value;
  if (text.trim() === '') return render({ total, message: 'Enter a promo code to see your discount.', kind: 'empty' });
  const normal = normalise(text);
  if (normal.error) return render({ total, message: normal.error, kind: 'invalid' });
  const code = normal.code;

  const entry = codes.get(code);
  if (!entry || entry.status === 'pending') {
    return render({ total, message: `Looking up ${code}…`, kind: 'loading' });
  }
  if (entry.status === 'unknown') return render({ total, message: `There is no code ${code}.`, kind: 'unknown' });
  if (entry.status === 'error') return render({ total, message: entry.message, kind: 'error' });

  const customer = ui.customer.value.trim();
  if (entry.assigned) return quoteOnServer(code, total, customer);

  const options = {
    usage: { total: entry.usage.total, per_customer: customerUses.get(`${code}\n${customer}`) ?? 0 },
  };
  if (customer !== '') options.customer = customer;
  let result;
  try {
    result = wasmQuote(entry.definition, { total }, options);
  } catch (err) {
    return render({ total, message: err.message, kind: 'invalid' });
  }
  showResult(result, entry, total, customer);
}

function showResult(result, entry, total, customer) {
  if (result.ok) {
    const { quote } = result;
    let message = `${quote.code} applied: ${describe(entry.definition)}.`;
    if (typeof entry.remaining === 'number') {
      message += ` ${entry.remaining} ${entry.remaining === 1 ? 'use' : 'uses'} left.`;
    }
    render({
      total: quote.total,
      discount: quote.discount,
      payable: quote.payable,
      message,
      kind: 'quoted',
      current: { code: quote.code, total, customer, quote },
    });
  } else {
    const hint = result.rejection === 'customer_required' ? ': enter your customer id' : '';
    render({ total, message: `${capitalise(result.message)}${hint}`, kind: 'rejected' });
  }
}

const capitalise = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);

// Assigned codes: the Worker knows the audience, so it quotes (debounced; the latest answer wins).
function quoteOnServer(code, total, customer) {
  const entry = codes.get(code);
  if (customer === '') {
    return render({
      total,
      message: `${code} is for named customers: enter your customer id to check it.`,
      kind: 'rejected',
    });
  }
  render({ total, message: `Checking ${code} for ${customer}…`, kind: 'loading' });
  const seq = state.serverQuoteSeq;
  state.serverQuoteTimer = setTimeout(async () => {
    let result;
    try {
      const res = await fetch('/demo/quote', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ code, total, customer }),
      });
      const body = await res.json().catch(() => ({}));
      if (res.ok) result = { ok: true, quote: body.quote ?? body };
      else if (res.status === 422 && body.rejection) {
        result = { ok: false, rejection: body.rejection, message: body.detail ?? body.message ?? body.rejection };
      } else result = { ok: false, message: `could not check the code: ${body.detail ?? res.statusText}` };
    } catch (err) {
      result = { ok: false, message: `could not check the code: ${err.message}` };
    }
    if (seq === state.serverQuoteSeq) showResult(result, entry, total, customer);
  }, SERVER_QUOTE_DELAY_MS);
}

// Fetches a code's definition once (per normalised code), then re-quotes if it is still the one typed.
async function lookup(code) {
  if (codes.has(code) && codes.get(code).status !== 'error') return;
  codes.set(code, { status: 'pending' });
  let entry;
  try {
    const res = await fetch(`/v1/codes/${encodeURIComponent(code)}`, { headers: { accept: 'application/json' } });
    if (res.status === 404) entry = { status: 'unknown' };
    else if (!res.ok) {
      const body = await res.json().catch(() => ({}));
      entry = { status: 'error', message: `could not look up ${code}: ${body.detail ?? res.statusText}` };
    } else entry = toEntry(await res.json());
  } catch (err) {
    entry = { status: 'error', message: `could not look up ${code}: ${err.message}` };
  }
  codes.set(code, entry);
  if (normalise(ui.code.value).code === code) requote();
}

function toEntry(body) {
  const source = body.definition ?? body;
  const definition = {};
  for (const field of DEFINITION_FIELDS) if (source[field] !== undefined) definition[field] = source[field];
  return {
    status: 'found',
    definition,
    assigned: Boolean(source.assigned ?? body.assigned),
    usage: { total: body.usage?.total ?? 0 },
    remaining: body.remaining,
  };
}

function scheduleLookup() {
  clearTimeout(state.lookupTimer);
  const normal = normalise(ui.code.value);
  if (!normal.code || codes.has(normal.code)) return;
  state.lookupTimer = setTimeout(() => lookup(normal.code), LOOKUP_DELAY_MS);
}

// ---- paying ----

// A changed basket, code or customer is a new checkout attempt.
function newAttempt() {
  state.attempt = null;
  state.paid = false;
  ui.newOrder.hidden = true;
  clearOutcome();
}

async function pay() {
  if (state.paying || state.paid || !state.current) return;
  const sent = state.current;
  state.paying = true;
  state.attempt ??= crypto.randomUUID();
  updatePay();
  clearOutcome();
  const body = { code: sent.code, total: sent.total, attempt: state.attempt };
  if (sent.customer !== '') body.customer = sent.customer;
  let res;
  let answer = {};
  try {
    res = await fetch('/demo/pay', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    answer = await res.json().catch(() => ({}));
  } catch (err) {
    res = null;
    answer = { detail: err.message };
  }
  state.paying = false;
  if (res && (res.status === 200 || res.status === 201) && answer.quote) paid(answer, sent);
  else if (res && res.status === 422 && answer.rejection) rejectedAtPayment(answer, sent);
  else if (res && res.status === 409) busy(res);
  else failed(res, answer);
  updatePay();
}

function paid(receipt, sent) {
  const { quote, usage } = receipt;
  state.paid = true;
  state.attempt = null; // a finished payment: the next one is a new attempt
  const entry = codes.get(quote.code);
  if (entry?.status === 'found' && usage) {
    entry.usage = { total: usage.total };
    if (typeof entry.definition.limits?.total === 'number') entry.remaining = Math.max(entry.definition.limits.total - usage.total, 0);
    if (sent.customer !== '') customerUses.set(`${quote.code}\n${sent.customer}`, usage.per_customer);
  }
  ui.newOrder.hidden = false;
  requote(); // the live quote with the new usage ("99 uses left"); Pay stays off until a new order
  showOutcome('receipt', [
    el('h3', {}, 'Payment confirmed'),
    el('p', {}, `You paid ${show(quote.payable)}: ${show(quote.discount)} off ${show(quote.total)} with ${quote.code}.`),
    el(
      'dl',
      { class: 'receipt' },
      el('div', {}, el('dt', {}, 'Code'), el('dd', {}, quote.code)),
      el('div', {}, el('dt', {}, 'Basket total'), el('dd', {}, show(quote.total))),
      el('div', {}, el('dt', {}, 'Discount'), el('dd', {}, `− ${show(quote.discount)}`)),
      el('div', {}, el('dt', {}, 'Paid'), el('dd', { id: 'receipt-paid' }, show(quote.payable))),
      el('div', {}, el('dt', {}, 'Quoted at'), el('dd', {}, quote.quoted_at.replace('T', ' ').replace('Z', ' UTC'))),
      usage ? el('div', {}, el('dt', {}, 'Uses of the code'), el('dd', { id: 'receipt-usage' }, String(usage.total))) : '',
    ),
    receipt.replayed ? el('p', { class: 'hint' }, 'This confirmation was already recorded; nothing was charged twice.') : '',
  ]);
}

function rejectedAtPayment(answer, sent) {
  const stale = answer.quote;
  const reason =
    answer.rejection === 'exhausted'
      ? 'the code ran out while you were paying'
      : `the code no longer applies (${answer.detail ?? answer.rejection})`;
  const sentence = stale
    ? `${capitalise(reason)}: you were quoted ${show(stale.payable)}, the total is now ${show(stale.total)}.`
    : `${capitalise(reason)}.`;
  showOutcome('stale', [
    el('h3', {}, 'The discount could not be applied'),
    el('p', { id: 'stale-message' }, sentence),
    el('p', { class: 'hint' }, 'Nothing was charged and the code was not used. Try another code.'),
  ]);
  // The definition's usage is out of date: fetch it again, so the live quote says why.
  codes.delete(sent.code);
  lookup(sent.code);
}

function busy(res) {
  const after = res.headers.get('retry-after');
  showOutcome('conflict', [
    el('h3', {}, 'Busy, try again'),
    el('p', {}, `Many people are using this code right now${after ? `; try again in ${after} s` : ''}. Nothing was charged, and paying again is safe.`),
  ]);
}

function failed(res, answer) {
  showOutcome('error', [
    el('h3', {}, 'The payment did not go through'),
    el('p', {}, `${res ? `${res.status}: ` : ''}${answer.detail ?? answer.title ?? 'no answer from the server'}. Nothing was charged.`),
  ]);
}

// ---- wiring ----

function onBasketOrCustomer() {
  newAttempt();
  requote();
}

ui.basket.addEventListener('input', onBasketOrCustomer);
ui.customer.addEventListener('input', onBasketOrCustomer);
ui.code.addEventListener('input', () => {
  newAttempt();
  requote();
  scheduleLookup();
});
ui.pay.addEventListener('click', pay);
ui.newOrder.addEventListener('click', () => {
  newAttempt();
  requote();
  ui.code.focus();
});

try {
  await init();
  state.ready = true;
  document.documentElement.dataset.ready = 'true';
  requote();
  scheduleLookup();
} catch (err) {
  render({ total: null, message: `The quote module failed to load: ${err.message}`, kind: 'error' });
}
