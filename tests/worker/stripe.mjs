// Stripe webhooks for the Worker tests: realistic event objects, shaped as Stripe documents them and
// carrying the many fields Stripe sends, and the `Stripe-Signature` header, signed with node:crypto
// exactly as Stripe signs: HMAC-SHA256 keyed with the endpoint secret (the whole `whsec_...` string)
// over `${t}.${raw body}`, hex, sent as `t=<unix seconds>,v1=<hex>`.
//
// The Worker side is worker/src/payments/; tests/worker/stripe-signing.test.mjs checks this signer
// against the fixed vector that the Rust tests also verify.
//
//   const evt = paymentIntentSucceeded({ code: "SAVE10", customer: "alice", amount: 7200 });
//   const res = await postStripe(worker.base, evt);   // signed with STRIPE_TEST_SECRET, now
//
// The Worker must then run with `--var STRIPE_WEBHOOK_SECRET:${STRIPE_TEST_SECRET}` (harness.mjs).
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { call } from "./harness.mjs";

/** The endpoint secret the Worker tests sign with. */
export const STRIPE_TEST_SECRET = "whsec_promocodes_worker_tests";
/** The route Stripe posts to. */
export const STRIPE_WEBHOOK_ROUTE = "/v1/webhooks/stripe";
/** The API version stamped on the events (any recent one; the shapes below are the 2024 ones). */
export const STRIPE_API_VERSION = "2024-06-20";
/** Stripe's limit on one metadata value (docs.stripe.com/metadata: "value: 500-character limit"). */
export const METADATA_VALUE_LIMIT = 500;

/** Now, in Unix seconds. */
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A fresh Stripe-like id: `pi_3Q…`. */
export const stripeId = (prefix) => `${prefix}_3Q${randomBytes(11).toString("hex")}`;

function bodyBytes(body) {
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError("sign the raw body (a string or bytes), not an object: re-serialising changes the bytes");
}

/** The hex v1 signature of `body` (string or bytes) at timestamp `t` with `secret`. */
export function stripeSignature(body, secret, t) {
  return createHmac("sha256", secret).update(`${t}.`, "utf8").update(bodyBytes(body)).digest("hex");
}

/**
 * The `Stripe-Signature` header value for `body`: `t=<t>,v1=<hex>`.
 * Options: `t` (Unix seconds, default now); `also`, more secrets to sign with, giving one more `v1`
 * each (what Stripe sends while an endpoint's secret is being rolled); `v0: true` adds a `v0`
 * element, as Stripe does on test-mode events, which verifiers ignore.
 */
export function signStripe(body, secret, { t = nowSeconds(), also = [], v0 = false } = {}) {
  const elements = [`t=${t}`, ...[secret, ...also].map((key) => `v1=${stripeSignature(body, key, t)}`)];
  if (v0) elements.push(`v0=${stripeSignature(body, "whsec_legacy_v0_scheme", t)}`);
  return elements.join(",");
}

/**
 * Metadata as the checkout puts it on the PaymentIntent: `promo_code`, optional `customer`, optional
 * `promo_basket` (an object is JSON-encoded). Throws where Stripe would refuse a value over 500 chars.
 */
export function promoMetadata({ code, customer, basket, extra = {} } = {}) {
  const metadata = { ...extra };
  if (code !== undefined) metadata.promo_code = code;
  if (customer !== undefined) metadata.customer = customer;
  if (basket !== undefined) metadata.promo_basket = typeof basket === "string" ? basket : JSON.stringify(basket);
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value !== "string") throw new TypeError(`metadata.${key} must be a string, as Stripe stores it`);
    if (value.length > METADATA_VALUE_LIMIT) {
      throw new RangeError(`metadata.${key} has ${value.length} characters; Stripe allows ${METADATA_VALUE_LIMIT}`);
    }
  }
  return metadata;
}

/** A PaymentIntent object (API 2024-06-20 shape). `amount` is in Stripe's minor unit. */
export function paymentIntent({
  id = stripeId("pi"), amount = 7200, amountReceived, currency = "eur", status = "succeeded", metadata = {},
  customer = null, canceledAt = null, cancellationReason = null, lastPaymentError = null,
  latestCharge = status === "succeeded" ? stripeId("ch") : null, created = nowSeconds() - 60,
} = {}) {
  const paymentMethod = stripeId("pm");
  return {
    id,
    object: "payment_intent",
    amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: amountReceived ?? (status === "succeeded" ? amount : 0),
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: { allow_redirects: "always", enabled: true },
    canceled_at: canceledAt,
    cancellation_reason: cancellationReason,
    capture_method: "automatic_async",
    client_secret: `${id}_secret_${randomBytes(12).toString("hex")}`,
    confirmation_method: "automatic",
    created,
    currency,
    customer,
    description: null,
    invoice: null,
    last_payment_error: lastPaymentError,
    latest_charge: latestCharge,
    livemode: false,
    metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: status === "canceled" ? null : paymentMethod,
    payment_method_configuration_details: { id: stripeId("pmc"), parent: null },
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" },
    },
    payment_method_types: ["card"],
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status,
    transfer_data: null,
    transfer_group: null,
  };
}

/** A Charge object (API 2024-06-20 shape), as `charge.refunded` carries it. */
export function charge({
  id = stripeId("ch"), paymentIntent = stripeId("pi"), amount = 7200, amountRefunded = 0, currency = "eur",
  metadata = {}, customer = null, created = nowSeconds() - 60,
} = {}) {
  return {
    id,
    object: "charge",
    amount,
    amount_captured: amount,
    amount_refunded: amountRefunded,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: stripeId("txn"),
    billing_details: {
      address: { city: null, country: "NL", line1: null, line2: null, postal_code: null, state: null },
      email: "alice@example.com", name: "Alice", phone: null,
    },
    calculated_statement_descriptor: "PROMOCODES",
    captured: true,
    created,
    currency,
    customer,
    description: null,
    destination: null,
    dispute: null,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    invoice: null,
    livemode: false,
    metadata,
    on_behalf_of: null,
    outcome: {
      network_status: "approved_by_network", reason: null, risk_level: "normal", risk_score: 32,
      seller_message: "Payment complete.", type: "authorized",
    },
    paid: true,
    payment_intent: paymentIntent,
    payment_method: stripeId("pm"),
    payment_method_details: {
      card: {
        amount_authorized: amount, brand: "visa", checks: { address_line1_check: null, address_postal_code_check: null,
          cvc_check: "pass" }, country: "US", exp_month: 12, exp_year: 2034, fingerprint: "Xt5EWLLDS7FJjR1c",
        funding: "credit", installments: null, last4: "4242", mandate: null, network: "visa",
        three_d_secure: null, wallet: null,
      },
      type: "card",
    },
    radar_options: {},
    receipt_email: null,
    receipt_number: null,
    receipt_url: `https://pay.stripe.com/receipts/payment/${randomBytes(16).toString("hex")}`,
    refunded: amountRefunded >= amount,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: "succeeded",
    transfer_data: null,
    transfer_group: null,
  };
}

/** An Event wrapping `object` (`previousAttributes` for the events that have them). */
export function stripeEvent(type, object, { id = stripeId("evt"), created = nowSeconds(), previousAttributes } = {}) {
  const data = previousAttributes === undefined ? { object } : { object, previous_attributes: previousAttributes };
  return {
    id,
    object: "event",
    api_version: STRIPE_API_VERSION,
    created,
    data,
    livemode: false,
    pending_webhooks: 1,
    request: { id: stripeId("req"), idempotency_key: randomUUID() },
    type,
  };
}

/**
 * `payment_intent.succeeded` for a payment with a promotion code. `amount` is in Stripe's minor unit
 * (7200 = EUR 72.00); `amountReceived` defaults to it. `metadata` replaces the promo metadata wholesale
 * (`{}` for a payment without a code).
 */
export function paymentIntentSucceeded({ code, customer, basket, metadata, ...intent } = {}) {
  const meta = metadata ?? promoMetadata({ code, customer, basket });
  return stripeEvent("payment_intent.succeeded", paymentIntent({ ...intent, status: "succeeded", metadata: meta }));
}

/** `payment_intent.canceled`, by default `requested_by_customer`. */
export function paymentIntentCanceled({
  code, customer, basket, metadata, cancellationReason = "requested_by_customer", ...intent
} = {}) {
  const meta = metadata ?? promoMetadata({ code, customer, basket });
  return stripeEvent("payment_intent.canceled", paymentIntent({
    ...intent, status: "canceled", metadata: meta, cancellationReason, canceledAt: nowSeconds(),
  }));
}

/**
 * `payment_intent.payment_failed`: a declined card. The PaymentIntent goes back to
 * `requires_payment_method`, as Stripe's lifecycle says: the customer may still retry and succeed.
 */
export function paymentIntentPaymentFailed({
  code, customer, basket, metadata, errorCode = "card_declined", declineCode = "insufficient_funds", ...intent
} = {}) {
  const meta = metadata ?? promoMetadata({ code, customer, basket });
  const failedCharge = stripeId("ch");
  const lastPaymentError = {
    charge: failedCharge,
    code: errorCode,
    decline_code: declineCode,
    doc_url: `https://stripe.com/docs/error-codes/${errorCode.replaceAll("_", "-")}`,
    message: "Your card has insufficient funds.",
    payment_method: { id: stripeId("pm"), object: "payment_method", type: "card" },
    type: "card_error",
  };
  return stripeEvent("payment_intent.payment_failed", paymentIntent({
    ...intent, status: "requires_payment_method", metadata: meta, lastPaymentError, latestCharge: failedCharge,
  }));
}

/**
 * `charge.refunded`: by default refunded in full. `amountRefunded` below `amount` makes it partial;
 * `previouslyRefunded` is what `previous_attributes` reports. `code` goes on the charge's metadata,
 * where Stripe copies the PaymentIntent's metadata at confirmation (pass `metadata: {}` for none).
 */
export function chargeRefunded({
  code, customer, basket, metadata, amount = 7200, amountRefunded = amount, previouslyRefunded = 0, ...rest
} = {}) {
  const meta = metadata ?? promoMetadata({ code, customer, basket });
  const object = charge({ ...rest, amount, amountRefunded, metadata: meta });
  return stripeEvent("charge.refunded", object, {
    previousAttributes: { amount_refunded: previouslyRefunded, refunded: previouslyRefunded >= amount },
  });
}

/** `charge.refunded` for part of the charge (default: 4.00 of 72.00). */
export function chargePartiallyRefunded({ amount = 7200, amountRefunded = 400, ...rest } = {}) {
  if (amountRefunded >= amount) throw new RangeError("a partial refund is less than the charge");
  return chargeRefunded({ ...rest, amount, amountRefunded });
}

/**
 * The request Stripe would send for `event`: the body as Stripe sends it (pretty-printed JSON, so a
 * Worker that re-serialises before verifying fails) and its headers. `header` overrides the signature.
 */
export function stripeRequest(event, { secret = STRIPE_TEST_SECRET, t = nowSeconds(), also, header } = {}) {
  const body = JSON.stringify(event, null, 2);
  const headers = {
    "content-type": "application/json; charset=utf-8",
    "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
  };
  const signature = header === undefined ? signStripe(body, secret, { t, also }) : header;
  if (signature !== null) headers["stripe-signature"] = signature;
  return { body, headers };
}

/** POSTs `event` to the Worker's Stripe route, signed (see `stripeRequest` for the options). */
export function postStripe(base, event, options) {
  const { body, headers } = stripeRequest(event, options);
  return call(base, "POST", STRIPE_WEBHOOK_ROUTE, { raw: body, headers });
}
