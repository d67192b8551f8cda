// The checkout page's elements and what it knows: the basket's rows, the code fields, each code's
// lookup, each customer's check, and the checkout's phase. Every other checkout module reads and
// changes these; only app.js wires events.
import { $, announcer } from '../lib/dom.js';
import { formatMinus, formatMoney } from '../lib/money.js';

export const LOOKUP_DELAY_MS = 250;
export const CUSTOMER_CHECK_DELAY_MS = 300;
// An outcome is announced once it has stood this long: one announcement per lookup, not per keystroke.
export const ANNOUNCE_DELAY_MS = 500;

// The most codes one basket takes (the core's `Stack::MAX_CODES`; the module refuses a sixth).
export const MAX_CODES = 5;

export const ui = {
  basket: $('basket'),
  code: $('code'),
  codeStatus: $('code-status'),
  moreCodes: $('more-codes'),
  addCode: $('add-code'),
  customer: $('customer'),
  quote: $('quote'),
  subtotal: $('subtotal'),
  shipping: $('shipping'),
  discount: $('discount'),
  payable: $('payable'),
  payableLabel: $('payable-label'),
  message: $('quote-message'),
  checkAgain: $('check-again'),
  pay: $('pay'),
  newOrder: $('new-order'),
  outcome: $('outcome'),
  announce: $('announce'),
};

// The page's currency, and its minor units (`digits`, from the module once it is loaded).
export const shop = { currency: ui.basket.dataset.currency, digits: undefined };

export const rows = [...ui.basket.querySelectorAll('tbody tr')].map((row) => ({
  item: row.dataset.item,
  sku: row.dataset.sku,
  category: row.dataset.category,
  price: row.dataset.price,
  name: row.querySelector('th').textContent.trim(),
  input: row.querySelector('input.qty'),
  amount: $(`line-${row.dataset.item}`),
  discount: $(`line-discount-${row.dataset.item}`),
  priceCell: row.querySelector('.price'),
}));
export const shippingRow = { amount: $('line-shipping'), discount: $('line-discount-shipping') };

/** A SKU's name on this page, in lower case ("enamel mug"), or the SKU itself. */
export const skuName = (sku) => rows.find((r) => r.sku === sku)?.name.toLowerCase() ?? sku;

// The code fields, in the order the buyer added them: the first (#code, always there) and the added
// ones, each { input, status (the sentence next to it), row and remove (added ones only) }.
export const codeFields = [{ input: ui.code, status: ui.codeStatus, row: null, remove: null }];

// normalised code -> { status: 'pending' } | { status: 'unknown' } | { status: 'error', message }
//   | { status: 'found', promo (a parsed PromoCode), definition, assigned, usage: { total, held, discounted },
//       campaign (a campaign's code: its id, else null), remaining (the lookup's, or null) }
export const codes = new Map();
// `${code}\n${customer}` -> what the Worker said about this customer and code:
//   { status: 'pending' } | { status: 'error', message }
//   | { status: 'known', perCustomer, refusal: null | { rejection, detail } }
export const customers = new Map();

export const state = {
  ready: false,
  interacted: false, // nothing is announced before the buyer does something
  // shopping -> holding -> held -> confirming -> paid; held -> cancelling -> shopping
  phase: 'shopping',
  // what Pay would pay for: { code (one code's, else null), codes (the codes that apply: as typed, or
  // every part's with automatic promotions), typed (the typed codes that apply, for a stack),
  // automatic (true when any applied), without (the names of the typed codes left out), basket,
  // customer, quote }
  current: null,
  order: null, // the checkout being paid: current + { attempt, hold, deadline }
  attempt: null, // the checkout attempt id of a Pay that got no answer (a retry reuses it)
  lookupTimers: new Map(), // input -> its lookup's debounce timer
  customerTimers: new Map(), // code -> its customer check's debounce timer
  // the parsed PromoStacks the last quote used, by their codes (one a line): { entries, automatic, handle }
  stacks: new Map(),
  automatic: [], // the automatic promotions' definitions (GET /v1/automatic), none until loaded
  countdownTimer: 0,
  fieldsMade: 0, // ids of added fields are never reused, so a removed field's id cannot come back
};

// One announcement per settled outcome, none before the buyer does something.
export const voice = announcer(ui.announce, { delay: ANNOUNCE_DELAY_MS, enabled: () => state.interacted });

// Money in the buyer's locale: "€12.50", and a discount "−€3.20".
export const show = (money) => formatMoney(money);
export const minus = (money) => formatMinus(money);

export const customerKey = (code, customer) => `${code}\n${customer}`;
