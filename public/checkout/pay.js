// Paying: Pay takes a hold (`/demo/hold`, the use is reserved for a few minutes), then Confirm payment
// captures it pinned to the quote shown (`/demo/pay`), or Cancel releases it (`/demo/cancel`). Without
// a code there is nothing to reserve: Pay and Confirm make no request. A stack's codes are held,
// captured and released all or none by the Worker.
import { holdTtlBounds } from '../pkg/promocodes.js';
import { $, el } from '../lib/dom.js';
import { clock, listOf, longWhen, minutesSeconds } from '../lib/format.js';
import { isZero } from '../lib/money.js';
import { codes, customerKey, customers, minus, show, state, voice } from './page.js';
import { codesOf, isAre, problemSentence } from './sentences.js';
import { lookup, refresh } from './codes.js';
import { refusal, requote } from './quote.js';
import { render, setPhase } from './summary.js';
import { busy, busyNote, clearOutcome, failed, failedNote, showOutcome } from './outcome.js';
import { post } from './worker.js';
import { loadAutomatic } from './automatic.js';

// How long Pay reserves the code: the core's default hold (15 minutes); `?hold=SECONDS`, within the
// core's bounds (1 to 3600), overrides it, e.g. for tests.
function holdSeconds() {
  const bounds = holdTtlBounds();
  const text = new URLSearchParams(location.search).get('hold');
  const seconds = Number(text);
  return text && Number.isInteger(seconds) && seconds >= bounds.min && seconds <= bounds.max ? seconds : bounds.default;
}

export async function pay() {
  if (state.phase !== 'shopping' || !state.current) return;
  const order = { ...state.current, attempt: state.attempt ?? crypto.randomUUID(), hold: null, deadline: 0 };
  clearOutcome();
  if (order.codes.length === 0) {
    // Nothing to reserve: confirm the payment of the full price.
    state.order = order;
    setPhase('held');
    return showHeld({ focus: true });
  }
  state.attempt = order.attempt; // a retry after no answer is the same attempt
  setPhase('holding');
  const body = { ...named(order), ...order.basket.request, ttl_seconds: holdSeconds(), attempt: order.attempt };
  if (order.customer !== '') body.customer = order.customer;
  const { status, answer, headers } = await post('/demo/hold', body);
  // One code's hold, or a stack's: one hold per code, every code held (the Worker holds all or none).
  const holds = answer.holds ?? [answer];
  if ((status === 201 || status === 200) && holds.length > 0 && holds.every((hold) => hold.state === 'held')) {
    state.attempt = null;
    order.hold = answer;
    const expires = Math.min(...holds.map((hold) => Date.parse(hold.expires_at)));
    order.deadline = Date.now() + Math.min(holdSeconds() * 1000, expires - Date.now());
    state.order = order;
    setPhase('held');
    showHeld({ focus: true });
    startCountdown();
    return;
  }
  setPhase('shopping');
  if (status === 422 && answer.rejection) {
    state.attempt = null;
    refusedWhilePaying(order, answer);
  } else if (status === 409) busy(headers, { focus: true });
  else {
    if (status === 200 || status === 201) state.attempt = null; // a replay of an old attempt: start afresh
    failed(status, answer, 'Nothing was reserved or charged.', { focus: true });
  }
  requote();
}

// The held state: what is reserved, until when, and the two buttons.
function showHeld({ focus = false, note = null } = {}) {
  const order = state.order;
  const payable = order.quote?.payable ?? order.basket.total;
  const confirm = el('button', { type: 'button', id: 'confirm' }, `Confirm payment of ${show(payable)}`);
  const cancel = el('button', { type: 'button', id: 'cancel', class: 'secondary' }, 'Cancel');
  confirm.addEventListener('click', confirmPayment);
  cancel.addEventListener('click', cancelPayment);
  const reserved = order.hold
    ? el('p', { id: 'hold-message' }, reservationSentence(order))
    : el('p', { id: 'hold-message' }, order.without?.length > 0
      ? `Paying without ${listOf(order.without)}: there is nothing to reserve.`
      : 'No promo code: there is nothing to reserve.');
  showOutcome(
    order.hold ? 'held' : 'confirm',
    [
      el('h3', {}, 'Confirm your payment'),
      reserved,
      note,
      el('p', { class: 'hint' }, `Confirm payment stands for your payment provider's confirmation of ${show(payable)}.`),
      el('div', { class: 'actions' }, confirm, cancel),
    ],
    { focus },
  );
}

// The request's field for the order's codes: `code` for one (as the page always sent it), `codes` for a
// stack; with automatic promotions, the typed codes (if any) and `"automatic": true`, for the Worker to
// decide them again.
function named(order) {
  if (!order.typed) return order.codes.length > 1 ? { codes: order.codes } : { code: order.code };
  if (!order.automatic) return { codes: order.typed };
  return order.typed.length > 0 ? { codes: order.typed, automatic: true } : { automatic: true };
}

function reservationSentence(order) {
  const until = clock(order.deadline);
  return `${codesOf(order)} ${isAre(order)} reserved for you until ${until} (${minutesSeconds(order.deadline - Date.now())} left).`;
}

function startCountdown() {
  clearInterval(state.countdownTimer);
  state.countdownTimer = setInterval(tick, 1000);
}

function stopCountdown() {
  clearInterval(state.countdownTimer);
}

function tick() {
  const order = state.order;
  if (!order?.hold) return stopCountdown();
  if (state.phase !== 'held') return; // confirming or cancelling: their answer decides
  if (Date.now() >= order.deadline) return expired(order);
  const line = $('hold-message');
  if (line) line.textContent = reservationSentence(order);
}

// The hold ran out on screen: say so, give the page back to the buyer, and re-quote. (The usage the
// page knows was read before the hold, so the quote needs no new lookup.) One announcement: the expiry.
function expired(order) {
  stopCountdown();
  state.order = null;
  setPhase('shopping');
  const sentence = `Your reservation of ${codesOf(order)} ran out at ${clock(order.deadline)}. Nothing was charged.`;
  showOutcome('expired', [
    el('h3', {}, 'Reservation expired'),
    el('p', { id: 'expired-message' }, sentence),
    el('p', { class: 'hint' }, 'Pay again to reserve the code again.'),
  ]);
  requote();
  voice.now(sentence);
}

async function confirmPayment() {
  const order = state.order;
  if (state.phase !== 'held' || !order) return;
  if (!order.hold) return paid({ quote: null, usage: null, replayed: false }, order);
  setPhase('confirming');
  const body = { ...named(order), ...order.basket.request, quote: order.quote, attempt: order.attempt };
  if (order.customer !== '') body.customer = order.customer;
  const { status, answer, headers } = await post('/demo/pay', body);
  const receipts = answer.receipts ?? [answer];
  if ((status === 201 || status === 200) && receipts.length > 0 && receipts.every((r) => r.state === 'captured')) {
    return paid(answer, order);
  }
  if (status === 422 && answer.rejection) {
    stopCountdown();
    state.order = null;
    setPhase('shopping');
    // The use stays reserved otherwise, until the hold runs out; released before the lookup below.
    await release(order, answer.rejection);
    refusedWhilePaying(order, answer);
    return requote();
  }
  if (Date.now() >= order.deadline) return expired(order);
  setPhase('held');
  const note = status === 409 ? busyNote(headers) : failedNote(status, answer);
  showHeld({ focus: true, note });
}

async function cancelPayment() {
  const order = state.order;
  if (state.phase !== 'held' || !order) return;
  stopCountdown();
  if (!order.hold) {
    state.order = null;
    setPhase('shopping');
    showOutcome('cancelled', [el('h3', {}, 'Payment cancelled'), el('p', {}, 'Nothing was charged.')], { focus: true });
    return requote();
  }
  setPhase('cancelling');
  const { status, answer } = await release(order, 'cancelled by the buyer');
  state.order = null;
  setPhase('shopping');
  if (status === 200) {
    showOutcome('cancelled', [
      el('h3', {}, 'Payment cancelled'),
      el('p', { id: 'cancel-message' }, `${codesOf(order)} ${isAre(order)} no longer reserved for you, and nothing was charged.`),
    ], { focus: true });
  } else {
    failed(status, answer, `Nothing was charged; the reservation of ${codesOf(order)} runs out by itself.`, { focus: true });
  }
  requote();
}

// Gives the held use (every code's, for a stack) back. Each answer's usage is its code's count now
// (a stack's answers come one per code, as listed).
async function release(order, reason) {
  const answer = await post('/demo/cancel', { ...named(order), attempt: order.attempt, reason });
  if (answer.status === 200) {
    const released = answer.answer.releases ?? [answer.answer];
    // The typed codes' answers come first, as listed (then the automatic ones').
    (order.typed ?? order.codes).forEach((code, i) => {
      const entry = codes.get(code);
      const usage = released[i]?.usage;
      if (entry?.status !== 'found' || !usage) return;
      entry.usage = { ...entry.usage, total: usage.total, discounted: usage.discounted ?? entry.usage.discounted };
    });
  }
  return answer;
}

// The final state: the summary shows what was paid, the receipt next to it.
function paid(receipt, order) {
  stopCountdown();
  state.order = null;
  state.attempt = null;
  setPhase('paid');
  // One code's receipt, or a stack's: one receipt per code, captured pinned to the stack's quote shown.
  const receipts = receipt.receipts ?? (receipt.quote ? [receipt] : []);
  const stacked = Boolean(receipt.receipts);
  const quote = stacked ? order.quote : receipt.quote;
  for (const one of receipts) learnFromReceipt(one, order);
  const basket = order.basket;
  const codesPaid = stacked ? codesOf(order) : quote?.code;
  const message = quote ? `Paid with ${codesPaid}.` : 'Paid, without a promo code.';
  render({ basket, quote, message, kind: 'paid' });
  const payable = quote?.payable ?? basket.total;
  const discount = quote?.discount;
  const replayed = receipts.length > 0 ? receipts.every((one) => one.replayed) : receipt.replayed;
  // The order's date: when the Worker captured it (its receipt's quote), or now without a code.
  const ordered = receipts[0]?.quote?.quoted_at ?? new Date().toISOString();
  const without = order.without ?? [];
  showOutcome(
    'receipt',
    [
      el('h3', {}, 'Payment confirmed'),
      el(
        'p',
        { id: 'receipt-message' },
        quote && !isZero(discount)
          ? `You paid ${show(payable)}: ${show(discount)} off ${show(quote.total)} with ${codesPaid}.`
          : `You paid ${show(payable)}.`,
      ),
      el(
        'dl',
        { class: 'receipt' },
        quote ? el('div', {}, el('dt', {}, stacked ? 'Codes' : 'Code'), el('dd', {}, stacked ? order.codes.join(', ') : quote.code)) : null,
        el('div', {}, el('dt', {}, 'Total'), el('dd', {}, show(quote?.total ?? basket.total))),
        quote ? el('div', {}, el('dt', {}, 'Discount'), el('dd', {}, isZero(discount) ? show(discount) : minus(discount))) : null,
        el('div', {}, el('dt', {}, 'Paid'), el('dd', { id: 'receipt-paid' }, show(payable))),
        el('div', {}, el('dt', {}, 'Order date'), el('dd', { id: 'receipt-date' }, longWhen(ordered))),
      ),
      without.length > 0
        ? el('p', { id: 'receipt-left-out', class: 'hint' }, `${listOf(without)} ${without.length > 1 ? 'were' : 'was'} not applied.`)
        : null,
      replayed ? el('p', { class: 'hint' }, 'This payment was already recorded; nothing was charged twice.') : null,
    ],
    { focus: true },
  );
}

// A receipt says how often the code (and this customer) has used it: the next order's quote knows.
function learnFromReceipt(receipt, order) {
  const entry = codes.get(receipt.quote.code);
  if (entry?.status !== 'found' || !receipt.usage) return;
  const { total, discounted } = receipt.usage;
  entry.usage = { ...entry.usage, total, discounted: discounted ?? entry.usage.discounted };
  // A campaign's code: what is left of it is the Worker's to say (its own cap is not the module's).
  if (entry.campaign) lookup(receipt.quote.code, { force: true });
  if (order.customer !== '') {
    customers.set(customerKey(receipt.quote.code, order.customer), {
      status: 'known',
      perCustomer: receipt.usage.per_customer,
      refusal: null,
    });
  }
}

// A refusal while reserving or paying: the reason, what the buyer was quoted, and that nothing was charged.
function refusedWhilePaying(order, answer) {
  if (order.codes.length > 1 || order.typed) return stackRefusedWhilePaying(order, answer);
  const entry = codes.get(order.code);
  const definition = entry?.status === 'found' ? entry.definition : null;
  let title;
  let sentence;
  if (answer.rejection === 'quote_changed' && answer.current) {
    title = 'The price changed';
    sentence = `The price changed while you were paying: you were quoted ${show(answer.quote?.payable ?? order.quote.payable)}, it is now ${show(answer.current.payable)}. Nothing was charged.`;
  } else if (answer.rejection === 'exhausted') {
    title = `${order.code} could not be applied`;
    sentence = `Someone else took the last use of ${order.code} while you were paying. Nothing was charged.`;
  } else {
    title = `${order.code} could not be applied`;
    sentence = `${refusal(answer.rejection, order.code, definition, { customer: order.customer, detail: answer.detail })} Nothing was charged.`;
  }
  showRefusedWhilePaying(order, answer.rejection === 'quote_changed', title, sentence);
}

// A stack refused while reserving or paying (the Worker held or captured none of its codes): every
// code that refused, with its reason.
function stackRefusedWhilePaying(order, answer) {
  const rejections = answer.rejections ?? [];
  const changed = rejections.some((r) => r.rejection === 'quote_changed') || answer.rejection === 'quote_changed';
  let title;
  let sentence;
  if (changed) {
    const parts = listOf(rejections.filter((r) => r.rejection === 'quote_changed').map((r) => r.code));
    title = 'The price changed';
    sentence = `The price changed while you were paying${parts ? ` (${parts})` : ''}: you were quoted ${show(order.quote.payable)}. Nothing was charged.`;
  } else {
    const sentences = rejections.map((r) => {
      if (r.rejection === 'exhausted') return `Someone else took the last use of ${r.code} while you were paying.`;
      const entry = codes.get(r.code);
      const definition = entry?.status === 'found' ? entry.definition : null;
      return refusal(r.rejection, r.code, definition, { customer: order.customer, detail: r.message, other: r.with });
    });
    title = `${codesOf(order)} could not be applied together`;
    sentence = `${sentences.join(' ') || problemSentence(422, answer)} Nothing was charged.`;
  }
  showRefusedWhilePaying(order, changed, title, sentence);
}

function showRefusedWhilePaying(order, changed, title, sentence) {
  const several = order.codes.length > 1;
  showOutcome(
    changed ? 'changed' : 'stale',
    [
      el('h3', {}, title),
      el('p', { id: 'stale-message' }, sentence),
      el(
        'p',
        { class: 'hint' },
        changed
          ? 'Check the new price above, then pay again.'
          : several
            ? 'A code that cannot be used is left out: check the new total, then pay again.'
            : 'You can pay the full price without the code, or try another code.',
      ),
    ],
    { focus: true },
  );
  // What the page knew is out of date: fetch the definitions again, so the live quote says why.
  if (order.automatic) loadAutomatic().then(requote);
  for (const code of order.typed ?? order.codes) {
    if (order.customer !== '') customers.delete(customerKey(code, order.customer));
    refresh(code);
  }
}
