// Generated from docs/openapi.json by `npm run generate` (scripts/generate.mjs). Do not edit.

export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The demo checkout page
         * @description Served by the static assets (public/), not the Worker's code.
         */
        get: operations["getPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * The demo checkout page (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headPage"];
        patch?: never;
        trace?: never;
    };
    "/demo/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Release the demo checkout attempt's use
         * @description `{code, attempt, reason?}` (or `codes` for a stack): releases `demo-<attempt>`.
         */
        post: operations["postDemoCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/demo/hold": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Hold for the demo page, keyed by the checkout attempt
         * @description A hold's body and `attempt`; the hold's key is `demo-<attempt>`.
         */
        post: operations["postDemoHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/demo/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Capture for the demo page, keyed by the checkout attempt
         * @description A capture's body and `attempt`: stands for the payment provider's confirmation; the capture's key is `demo-<attempt>`.
         */
        post: operations["postDemoPay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/demo/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Quote for the demo page, on the server side
         * @description A quote's body, `customer` allowed: the Worker quotes as the shop's server would. With `codes` in place of `code`: the stack's quote, as `POST /v1/quotes` gives it.
         */
        post: operations["postDemoQuote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/__conformance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run the store conformance suite (test builds only)
         * @description Exists only in builds with the `conformance` feature: runs the core's store conformance suite against the SQLite store inside a Durable Object.
         */
        post: operations["postConformance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/__figures/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        /**
         * Count a code's figures writes (test builds only)
         * @description Exists only in builds with the `conformance` feature: when the code's object (this instance of it) wrote figures to SQLite, and how many counted events wait in memory to be written. It writes nothing.
         */
        get: operations["getFigureWrites"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * Count a code's figures writes (test builds only; headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headFigureWrites"];
        patch?: never;
        trace?: never;
    };
    "/v1/automatic": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The automatic promotions
         * @description Public and rate limited (unless a valid token is sent), with CORS for `ALLOWED_ORIGINS`: the public definitions of the active automatic promotions, for the browser module's `PromoStack`. Served from the edge cache for a few seconds and purged by any change of an automatic definition (`PUT`, `PATCH` or `DELETE` of a code that is or was automatic); live with a token.
         */
        get: operations["getAutomatic"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * CORS preflight
         * @description 204 with `Allow: GET, HEAD`; for an origin in `ALLOWED_ORIGINS`, the preflight headers too.
         */
        options: operations["optionsAutomatic"];
        /**
         * The automatic promotions (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headAutomatic"];
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The campaigns */
        get: operations["listCampaigns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * The campaigns (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headListCampaigns"];
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        /** A campaign, its usage and its codes */
        get: operations["getCampaign"];
        /**
         * Define or replace a campaign of many codes
         * @description The campaign's definition and all of its codes live in one Durable Object (`campaign:<id>`), so one SQLite transaction reaches a code's count, the campaign's counts and its budget.
         */
        put: operations["putCampaign"];
        post?: never;
        /**
         * Archive a campaign
         * @description Its codes are then the same 404 as an unknown code; its counts and history stay. Archiving adds a row to its change history, with `X-Change-Note`.
         */
        delete: operations["archiveCampaign"];
        options?: never;
        /**
         * A campaign, its usage and its codes (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headCampaign"];
        /** A campaign's kill switch, for all of its codes */
        patch: operations["patchCampaign"];
        trace?: never;
    };
    "/v1/campaigns/{code}/changes": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        /**
         * A campaign's change history
         * @description Every write that changed the campaign's definition, oldest first, as `GET /v1/codes/{code}/changes` lists a code's (`code` is the campaign's id): a `PUT` (a restore too), the switch (`PATCH`) and an archive (`DELETE`).
         */
        get: operations["getCampaignChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * A campaign's change history (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headCampaignChanges"];
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns/{code}/codes": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        /**
         * A page of a campaign's codes
         * @description With `Accept: text/csv`, the whole campaign as CSV (`code,uses,held`, a header row), streamed; `after` and `limit` then play no part.
         */
        get: operations["listCampaignCodes"];
        put?: never;
        /** Generate or import a campaign's codes */
        post: operations["addCampaignCodes"];
        delete?: never;
        options?: never;
        /**
         * A page of a campaign's codes (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headListCampaignCodes"];
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns/{code}/redemptions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        /**
         * A campaign's history, each record with the code it came through
         * @description With `Accept: text/csv`, the whole history as CSV, streamed (`after` and `limit` then play no part): a header row, `seq,code,idempotency_key,state,customer,total,discount,payable,currency,at,reason`, the columns of the console's download (`total` the quote's or what was charged, `at` when the record last changed, `reason` a release's reason or a refusal's detail); a cell a spreadsheet would run as a formula (one that starts with `=`, `+`, `-`, `@`, a tab or a carriage return) starts with `'` and is quoted, as OWASP recommends.
         */
        get: operations["listCampaignRedemptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * A campaign's history, each record with the code it came through (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headListCampaignRedemptions"];
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns/{code}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        /**
         * A campaign's live figures
         * @description The figures of `GET /v1/codes/{code}/stats`, for all of the campaign's codes (`code` is the campaign's id).
         */
        get: operations["getCampaignStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * A campaign's live figures (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headCampaignStats"];
        patch?: never;
        trace?: never;
    };
    "/v1/captures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Capture a use: the payment is confirmed
         * @description Records the redemption under the `Idempotency-Key`, re-checking every rule now. A key that holds a use converts it (even when every other use is held by others) and keeps the hold's quote. With `quote`, the capture is pinned to the price the buyer was shown. A known key replays the receipt (200) and counts nothing.
         */
        post: operations["postCapture"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the catalog
         * @description A page of every code ever defined, in code order, each with its definition (audience as `assigned`), `archived` and live `usage`. A `PUT` that failed between the code's object and the catalog is repaired here.
         */
        get: operations["getCodes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * List the catalog (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headCodes"];
        patch?: never;
        trace?: never;
    };
    "/v1/codes/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        /**
         * Look a code up
         * @description Public and rate limited (unless a valid token is sent), with CORS for `ALLOWED_ORIGINS`. The definition without the audience's customers, its live usage and what remains under its cap. With a token, the answer is live and carries the definition's `ETag`.
         */
        get: operations["getCode"];
        /**
         * Define, replace or restore a code
         * @description Defines the code (201), or replaces its definition (200); an archived code is restored with its history and counts. Counts, holds and receipts are kept. With `If-Match`, only over the definition that tag names (else 412); the answer's `ETag` is the new definition's. A write that changed the definition adds a row to its change history (`GET /v1/codes/{code}/changes`), with `X-Change-Note`.
         */
        put: operations["putCode"];
        post?: never;
        /**
         * Archive a code
         * @description Buyers get 404 `unknown_code` from now on; its history stays, a recorded capture still replays, and a `PUT` restores it. Archiving adds a row to its change history, with `X-Change-Note`.
         */
        delete: operations["deleteCode"];
        /**
         * CORS preflight
         * @description 204 with `Allow: GET, HEAD`; for an origin in `ALLOWED_ORIGINS`, the preflight headers too.
         */
        options: operations["optionsCode"];
        /**
         * Look a code up (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headCode"];
        /**
         * Switch a code off or on
         * @description The kill switch: `{"active": false}` refuses quotes, holds and captures at once with `inactive`; holds already recorded still capture. Nothing else changes. With `If-Match`, only over the definition that tag names (else 412); the answer's `ETag` is the new definition's. A switch that changed the definition adds a row to its change history, with `X-Change-Note`.
         */
        patch: operations["patchCode"];
        trace?: never;
    };
    "/v1/codes/{code}/changes": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        /**
         * A code's change history
         * @description Every write that changed the code's definition, oldest first: a `PUT` (a restore too), the switch (`PATCH`) and an archive (`DELETE`), each with when, what kind of change, the fields whose value changed, the `ETag` before and after, and the operator's `X-Change-Note`. Each is written in the same transaction as the change; a write that left the definition as it was (the same `ETag`) adds none. Archived codes are listed too.
         */
        get: operations["getCodeChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * A code's change history (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headCodeChanges"];
        patch?: never;
        trace?: never;
    };
    "/v1/codes/{code}/redemptions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        /**
         * List a code's holds and captures
         * @description Every hold and capture, oldest first, each with its state now (a hold past its expiry is `expired`). Archived codes are listed too. With `Accept: text/csv`, the whole history as CSV, streamed (`after` and `limit` then play no part): a header row, `seq,idempotency_key,state,customer,total,discount,payable,currency,at,reason`, the columns of the console's download (`total` the quote's or what was charged, `at` when the record last changed, `reason` a release's reason or a refusal's detail); a cell a spreadsheet would run as a formula (one that starts with `=`, `+`, `-`, `@`, a tab or a carriage return) starts with `'` and is quoted, as OWASP recommends.
         */
        get: operations["getRedemptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * List a code's holds and captures (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headRedemptions"];
        patch?: never;
        trace?: never;
    };
    "/v1/codes/{code}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        /**
         * A code's live figures
         * @description Captures, replays, holds, releases, expiries, conflicts, quotes, the checkout page's reported tries and refusals by rejection: since the code was defined, for the last hour, the last 24 hours and the last seven days; the last hour minute by minute (`by_minute`) and the last seven days hour by hour (`by_hour`).
         */
        get: operations["getStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * A code's live figures (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headStats"];
        patch?: never;
        trace?: never;
    };
    "/v1/codes/{code}/tries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report a code tried on the checkout page
         * @description Public and rate limited (unless a valid token is sent), with CORS for `ALLOWED_ORIGINS`: the checkout page's report of a code a buyer tried, `{}` (typed and looked up), or of a refusal it showed for it, `{"refused": "<rejection>"}` (the browser module prices locally, so no quote of the Worker's sees these). The page reports each once per code (and refusal) a page load. The code's object counts it in memory and writes its figures at most once a second, never a write per report; they show in `GET …/stats` as `tries` and `rejections.page`. Anonymous: nothing about the buyer or the basket is sent.
         */
        post: operations["postTries"];
        delete?: never;
        /**
         * CORS preflight
         * @description 204 with `Allow: POST`; for an origin in `ALLOWED_ORIGINS`, the preflight headers too.
         */
        options: operations["optionsTries"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/holds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Hold a use while the buyer pays
         * @description Reserves one use for the buyer under the `Idempotency-Key` until `expires_at` (`ttl_seconds`, 900 by default). It counts against the caps until it is captured, released or expires. A known key replays (200) with the hold as it stands now.
         */
        post: operations["postHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This description
         * @description docs/openapi.json, as the Worker was built with it.
         */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * This description (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headOpenApi"];
        patch?: never;
        trace?: never;
    };
    "/v1/quotes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Price a basket
         * @description Public and rate limited without `customer`, with CORS for `ALLOWED_ORIGINS`. A quote for a named customer tells whether that customer may use the code, so it needs a server's token (`CAPTURE_TOKEN` or `ADMIN_TOKEN`; a valid token also skips the rate limit). Counts nothing.
         */
        post: operations["postQuote"];
        delete?: never;
        /**
         * CORS preflight
         * @description 204 with `Allow: POST`; for an origin in `ALLOWED_ORIGINS`, the preflight headers too.
         */
        options: operations["optionsQuotes"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/releases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give a use back
         * @description Releases the hold or capture recorded under `key`: a checkout abandoned, an order cancelled or refunded. Releasing again replays (200, `replayed: true`).
         */
        post: operations["postRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the webhook endpoints
         * @description Every endpoint the events are sent to, in id order, without their secrets.
         */
        get: operations["getWebhooks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * List the webhook endpoints (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headWebhooks"];
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/stripe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stripe webhook
         * @description Stripe posts an event; the Worker verifies `Stripe-Signature` over the raw body with `STRIPE_WEBHOOK_SECRET` (HMAC-SHA256, any `v1`, constant time, at most 300 s off). `payment_intent.succeeded` with `metadata.promo_code` captures under the PaymentIntent's id, pinned to `amount_received` (converted with Stripe's own minor units), converting a hold taken under that id; a capture refused then is recorded as a refused payment capture and answered 200 (`action: refused`). `payment_intent.canceled`, `payment_intent.payment_failed` and a full `charge.refunded` release what is recorded under the PaymentIntent's id. Stripe does not order its events: a full refund is final for its PaymentIntent, in any order and under concurrent delivery, whether the refund names the codes, the PaymentIntent named them earlier, or neither has been seen yet (recorded as released even when nothing was held or captured yet; a refund that no code is known for yet is kept by PaymentIntent id and answered 200 `action: released` with `why`; a `payment_intent.succeeded` after it captures nothing, gives back a hold under the PaymentIntent's id, and is answered 200 `action: released`, `replayed: true`), and so is a refused payment capture (a redelivery answers `action: refused`, `replayed: true`). Only a hold released by `payment_intent.canceled` or `payment_intent.payment_failed` may be followed by a capture afresh, under `<pi>:paid`. `metadata.promo_codes` (comma-separated, beside `promo_code`) names several codes in one basket, a stack, captured, released and refunded as one: the stack is priced on `metadata.promo_basket` (required for a stack; a code already captured or held under the PaymentIntent is taken as it was, never priced again, so a redelivery of a captured stack answers `action: replayed` with the first delivery's receipts after any edit) and its payable must be `amount_received`, then each code goes through its own payment flow under the PaymentIntent's id, with the basket its part applied to, all or none (`receipts`: one receipt per code, in the order they apply). A stack refused before anything is written (a code's own rule, `not_combinable`, a changed price) records nothing and is answered 200 `action: refused` with `rejections`; a code refused at its write (its counts moved) is recorded for that code as a refused payment capture and every other code's use under the PaymentIntent is given back for good (`releases`). A cancel, failure or refund of a stack answers `releases`, one entry per code. A list of one is one code. An event naming both `promo_code` and `promo_codes`, or a malformed list (an empty item, a code twice, more than 5), is answered 200 and ignored with `why`. Other events are answered 200 and ignored. A conflict or a store failure is a 5xx, so that Stripe delivers the event again.
         */
        post: operations["postStripeWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`). */
                id: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        /** Read a webhook endpoint */
        get: operations["getWebhook"];
        /**
         * Define or replace a webhook endpoint
         * @description Defines the endpoint (201, with its signing secret `whsec_...` shown this once) or replaces its `url`, `events` and `description` (200: the secret is kept, and an endpoint disabled by a 410 is enabled again). The `url` is `https://`, or `http://` to a host listed in `WEBHOOK_ALLOW_HTTP`; at most 16 endpoints. Each event is signed as Standard Webhooks 1.0 signs (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
         */
        put: operations["putWebhook"];
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Nothing more is sent to it.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        /**
         * Read a webhook endpoint (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headWebhook"];
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`). */
                id: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        /**
         * An endpoint's deliveries
         * @description Each event tried for the endpoint, in the order of its first try: its tries, the last status or error, and when the next try is due (`pending`), or `delivered`, or `failed` (given up after the last retry: send it again by hand). The newest 10,000 are kept.
         */
        get: operations["getWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * An endpoint's deliveries (headers only)
         * @description As `GET`, without a body.
         */
        head: operations["headWebhookDeliveries"];
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{event_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`). */
                id: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an event again
         * @description Sends an event tried before (delivered, pending or failed) to the endpoint again, now, signed afresh under the same `webhook-id`; the answer is its delivery after this try. A failed event stays failed if this try fails too; a pending one keeps its next try.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`). */
                id: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook endpoint's secret
         * @description A new signing secret, shown this once; for 24 hours the one before signs too (`webhook-signature` then lists both signatures, space-separated).
         */
        post: operations["rotateWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The lines a code applies to: a line is eligible when its sku or any of its categories is listed. Lists are sorted and without repeats; an empty one is left out. */
        AppliesTo: {
            categories?: components["schemas"]["Category"][];
            skus?: components["schemas"]["Sku"][];
        };
        /** @description The lines a code applies to: skus and categories (up to 1000 of each; not both empty). */
        AppliesToInput: {
            categories?: components["schemas"]["Category"][];
            skus?: components["schemas"]["Sku"][];
        };
        /** @description `GET /v1/automatic`: the public definitions of the active automatic promotions (each as `PublicCode` shows a definition: the audience only as `assigned`), by priority then code, at most 20. */
        AutomaticPromotions: {
            promotions: components["schemas"]["PublicDefinition"][];
        };
        /** @description What is being bought: either `{total}`, or `{lines, shipping?}`. */
        Basket: {
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
            lines?: never;
            shipping?: never;
        } | {
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
        };
        /** @description A campaign's definition: `id`, `uses_per_code`, and the definition its codes share (as a code's, without `code`). */
        Campaign: {
            /** @description The kill switch: an inactive code is refused with `inactive`. */
            active: boolean;
            applies_to?: components["schemas"]["AppliesTo"];
            /** @description The customers the code is assigned to, sorted, without repeats; left out for a public code. */
            audience?: components["schemas"]["CustomerId"][];
            /** @description The classes of code this code may share a basket with (none when left out): two codes combine only when each lists the other's class. Written in the order of application. */
            combines_with?: components["schemas"]["CodeClass"][];
            discount: components["schemas"]["Discount"];
            /** @description The first moment the code is no longer valid (exclusive). */
            ends_at?: components["schemas"]["Timestamp"];
            /**
             * @description A first-order code: only a customer with `customer_orders: 0` may use it (its `limits.per_customer` defaults to 1); left out otherwise.
             * @constant
             */
            first_order?: true;
            id: components["schemas"]["Code"];
            limits?: components["schemas"]["UsageLimits"];
            /** @description The smallest eligible subtotal the code applies to. */
            minimum?: components["schemas"]["Money"];
            /** @description How many shard objects the holds and captures of the campaign's codes are spread over (by the customer, else the idempotency key), each deciding inside an allotment of the campaign's total and budget, and of each code's uses. Written only when above 1. */
            shards?: number;
            /** @description The first moment the code is valid (inclusive). */
            starts_at?: components["schemas"]["Timestamp"];
            uses_per_code: number;
        };
        /** @description A page of a campaign's codes in the order they were added, each with its captured uses and the holds that count now; `next` is the cursor of the next page (`?after=`), or null (`GET /v1/campaigns/{id}/codes`). */
        CampaignCodeList: {
            /** @description The codes of the page. */
            codes: {
                /** @description The code. */
                code: components["schemas"]["Code"];
                /** @description Its holds that count now. */
                held: number;
                /** @description Its captured uses. */
                uses: number;
            }[];
            /** @description The cursor of the next page (`?after=`), or null on the last. */
            next: string | null;
        };
        /** @description The body of `PUT /v1/campaigns/{id}`: a code's definition without `code` (the id names the campaign), plus `uses_per_code` (default 1). Its `limits` (`total`, `per_customer`, `budget`) hold across all of the campaign's codes; `uses_per_code` caps each code. */
        CampaignInput: {
            /** @default true */
            active?: boolean;
            applies_to?: components["schemas"]["AppliesToInput"];
            audience?: components["schemas"]["CustomerIdInput"][];
            /**
             * @description A campaign cannot be automatic: `true` is 400 naming `automatic`.
             * @constant
             */
            automatic?: false;
            /** @description The classes of code this code may share a basket with; default none. Two codes combine only when each lists the other's class. */
            combines_with?: components["schemas"]["CodeClass"][];
            discount: components["schemas"]["DiscountInput"];
            ends_at?: components["schemas"]["TimestampInput"];
            /**
             * @description A first-order code: quotes, holds and captures need `customer` and `customer_orders`, and `customer_orders` above 0 is refused with `not_first_order`; `limits.per_customer` defaults to 1.
             * @default false
             */
            first_order?: boolean;
            limits?: components["schemas"]["UsageLimitsInput"];
            minimum?: components["schemas"]["MoneyInput"];
            /**
             * @description Spreads the holds and captures of the campaign's codes over this many shard objects (by the customer, else the idempotency key); its caps stay exact: the campaign's object grants each shard an allotment of the total and the budget left, and each code's uses are granted by the shard the code belongs to.
             * @default 1
             */
            shards?: number;
            starts_at?: components["schemas"]["TimestampInput"];
            /** @default 1 */
            uses_per_code?: number;
        };
        /** @description A page of campaigns in id order, each as `GET /v1/campaigns/{id}` answers it; `next` is the cursor of the next page (`?after=`), or null (`GET /v1/campaigns`). */
        CampaignList: {
            /** @description The campaigns of the page, each as `GET /v1/campaigns/{id}` answers it. */
            campaigns: components["schemas"]["CampaignSummary"][];
            /** @description The cursor of the next page (`?after=`), or null on the last. */
            next: string | null;
        };
        /** @description A page of a campaign's whole history, oldest first: every record of every code of the campaign (uses, refused payment captures, refunds recorded before their payment, with the campaign's counts) as `GET /v1/codes/{code}/redemptions` lists a code's, with the `code` it came through; `code` at the top is the campaign's id; `next` the cursor of the next page, or null. */
        CampaignRedemptionList: {
            code: components["schemas"]["Code"];
            next: string | null;
            redemptions: {
                code: components["schemas"]["Code"];
                seq: number;
                state: string;
            }[];
        };
        /** @description A campaign with its usage now (every code's: `total`, `held`, `discounted` in its currency and the holds' part of it, `held_discounted`), the uses left under its total (`remaining`) and its codes (`count`, and `used`: those with a use that counts). */
        CampaignSummary: {
            active: boolean;
            applies_to?: components["schemas"]["AppliesTo"];
            archived: boolean;
            audience?: components["schemas"]["CustomerId"][];
            codes: {
                count: number;
                used: number;
            };
            /** @description The classes of code this code may share a basket with (none when left out): two codes combine only when each lists the other's class. Written in the order of application. */
            combines_with?: components["schemas"]["CodeClass"][];
            /** @description When the campaign was first defined; left out for a campaign defined before this was kept. */
            defined_at?: components["schemas"]["Timestamp"];
            discount: components["schemas"]["Discount"];
            ends_at?: components["schemas"]["Timestamp"];
            id: components["schemas"]["Code"];
            limits?: components["schemas"]["UsageLimits"];
            minimum?: components["schemas"]["Money"];
            /** @description Uses left across every code: the least of what the campaign's total cap and its budget leave (the budget counted in uses as for a code's `remaining`); only when one of them bounds it. */
            remaining?: number;
            remaining_budget?: components["schemas"]["Money"];
            /** @description How many shard objects the holds and captures of the campaign's codes are spread over (by the customer, else the idempotency key), each deciding inside an allotment of the campaign's total and budget, and of each code's uses. Written only when above 1. */
            shards?: number;
            starts_at?: components["schemas"]["Timestamp"];
            usage: {
                discounted?: components["schemas"]["Money"];
                held: number;
                /** @description Of `discounted`, the discounts of the active holds. */
                held_discounted?: components["schemas"]["Money"];
                total: number;
            };
            uses_per_code: number;
        };
        /** @description The body of `POST /v1/captures`: a quote's body and, to pin the price, `quote`. */
        CaptureRequest: {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (each part's code and discount, and the payable, are compared; any change is `quote_changed` for the parts that changed, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (each part's code and discount, and the payable, are compared; any change is `quote_changed` for the parts that changed, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket?: never;
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (each part's code and discount, and the payable, are compared; any change is `quote_changed` for the parts that changed, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (each part's code and discount, and the payable, are compared; any change is `quote_changed` for the parts that changed, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (each part's code and discount, and the payable, are compared; any change is `quote_changed` for the parts that changed, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket?: never;
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (each part's code and discount, and the payable, are compared; any change is `quote_changed` for the parts that changed, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket: components["schemas"]["Basket"];
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (each part's code and discount, and the payable, are compared; any change is `quote_changed` for the parts that changed, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            shipping?: never;
            total?: never;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket: components["schemas"]["Basket"];
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (each part's code and discount, and the payable, are compared; any change is `quote_changed` for the parts that changed, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            shipping?: never;
            total?: never;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket: components["schemas"]["Basket"];
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (each part's code and discount, and the payable, are compared; any change is `quote_changed` for the parts that changed, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            shipping?: never;
            total?: never;
        };
        /** @description A product category: 1 to 64 visible ASCII characters, case-sensitive. */
        Category: string;
        /** @description The kind of a [`ChangeRecord`], as the `code.updated` event's `change` names it. */
        ChangeKind: "defined" | "switched_on" | "switched_off" | "archived" | "restored";
        /** @description One page of the changes of a code's or a campaign's definition, oldest first. */
        ChangeList: {
            /** @description Its changes on this page. */
            changes: components["schemas"]["ChangeRecord"][];
            /** @description The code, or the campaign's id. */
            code: components["schemas"]["Code"];
            /** @description The `after` of the next page (a `seq`, as text), or null on the last. */
            next: string | null;
        };
        /** @description One write that changed a definition: a `PUT`, the switch (`PATCH`), an archive (`DELETE`) or a restore (a `PUT` of an archived one). A write that left the definition as it was (the same `ETag`) records none. */
        ChangeRecord: {
            /** @description When it was written. */
            at: components["schemas"]["Timestamp"];
            /** @description What kind of change, as the `code.updated` event names it. */
            change: components["schemas"]["ChangeKind"];
            /** @description The `ETag` after. */
            etag_after: string;
            /** @description The `ETag` before, or null for a new definition. */
            etag_before: string | null;
            /** @description The definition's fields whose value changed (`archived` when it was archived or restored), in name order; empty for a new definition. */
            fields: string[];
            /** @description The operator's note (the request's `X-Change-Note`), if it sent one. */
            note: string | null;
            /** @description Its position in the history (the pagination cursor). */
            seq: number;
        };
        /** @description A normalised promo code: 1 to 64 of `A-Z 0-9 _ -`. */
        Code: string;
        /**
         * @description What a code discounts, from its definition: `shipping` for a free-shipping discount, `product` when it has `applies_to`, `order` otherwise. In a basket with several codes, product codes apply first (each to its eligible lines after the product codes before it), then order codes (each to the subtotal after every discount before it), then shipping codes; within a class, in the order listed.
         * @enum {string}
         */
        CodeClass: "product" | "order" | "shipping";
        /** @description The code exists already, as a plain code or a campaign's: codes are unique across all codes and campaigns (case-insensitive). Nothing of the call was created. */
        CodeExistsProblem: {
            /** @constant */
            status?: 409;
            /** @constant */
            title?: "The code exists already";
            /** @constant */
            type?: "/problems/code_exists";
        };
        /** @description A promo code as typed: trimmed and upper-cased by the API, then 1 to 64 of `A-Z 0-9 _ -`. */
        CodeInput: string;
        /** @description One page of the catalog, in code order (`GET /v1/codes`). */
        CodeList: {
            /** @description The codes of the page. */
            codes: components["schemas"]["CodeSummary"][];
            /** @description The `after` of the next page, or null on the last. */
            next: components["schemas"]["Code"] | null;
        };
        /** @description `PUT /v1/codes/{code}` whose body defines another code. */
        CodeMismatchProblem: {
            /** @constant */
            status?: 400;
            /** @constant */
            title?: "The body's code is not the path's";
            /** @constant */
            type?: "/problems/code_mismatch";
        };
        /** @description The body of `PATCH /v1/codes/{code}`: the kill switch, nothing else. `{"active": false}` switches a code off at once, `{"active": true}` back on. */
        CodePatch: {
            /** @description Whether the code is switched on. */
            active: boolean;
        };
        /** @description A code as the catalog lists it: the public view, whether it is archived and when it was first defined. */
        CodeSummary: {
            /** @description The kill switch: an inactive code is refused with `inactive`. */
            active: boolean;
            applies_to?: components["schemas"]["AppliesTo"];
            archived: boolean;
            /** @description Whether the code is assigned to named customers (who they are is not public). */
            assigned: boolean;
            /** @description An automatic promotion: it joins a basket without being typed, when a request says `"automatic": true` (see `GET /v1/automatic`). Written only when true. */
            automatic?: boolean;
            /** @description For a campaign's code: the campaign it belongs to (its definition is the campaign's, with `code` the code). */
            campaign?: components["schemas"]["Code"];
            code: components["schemas"]["Code"];
            /** @description The classes of code this code may share a basket with (none when left out): two codes combine only when each lists the other's class. Written in the order of application. */
            combines_with?: components["schemas"]["CodeClass"][];
            /** @description When the code was first defined; left out for a code defined before this was kept. */
            defined_at?: components["schemas"]["Timestamp"];
            discount: components["schemas"]["Discount"];
            /** @description The first moment the code is no longer valid (exclusive). */
            ends_at?: components["schemas"]["Timestamp"];
            /**
             * @description A first-order code: only a customer with `customer_orders: 0` may use it (its `limits.per_customer` defaults to 1); left out otherwise.
             * @constant
             */
            first_order?: true;
            limits?: components["schemas"]["UsageLimits"];
            /** @description The smallest eligible subtotal the code applies to. */
            minimum?: components["schemas"]["Money"];
            /** @description Among automatic promotions, lower joins first (then by code). Written with `automatic`, or when not 100. */
            priority?: number;
            /** @description Uses left: the least of what the total cap, a campaign code's `uses_per_code` and the budget leave (a budget counted in uses at the discount's full size: a fixed amount or its `max`, rounded down with `refuse` and up with `partial`; a discount of no fixed size counts only once nothing is left). Only when one of them bounds it. */
            remaining?: number;
            /** @description What is left of the budget (never below zero); only when the code has one. */
            remaining_budget?: components["schemas"]["Money"];
            /** @description How many shard objects the code's holds and captures are spread over (by the customer, else the idempotency key), each deciding inside an allotment of the cap its object grants. Written only when above 1. It may change on a defined code, to 2 or more (never back to 1), at most 8 times: its uses and keys stay where they were taken. */
            shards?: number;
            /** @description The first moment the code is valid (inclusive). */
            starts_at?: components["schemas"]["Timestamp"];
            usage: components["schemas"]["CodeUsage"];
            /** @description For a campaign's code: how often the code itself may be used. */
            uses_per_code?: number;
        };
        /** @description A code's uses counting now: held and captured (`total`), of which held (`held`), and what they took off (`discounted`); for a campaign's code, the campaign's, and the code's own (`per_code`). */
        CodeUsage: {
            /** @description The sum of the discounts of the uses counting now (active holds included), in the code's currency; left out for a code without a currency of its own (a percent code without amounts may be used in several). */
            discounted?: components["schemas"]["Money"];
            /** @description Of `total`, the active holds. */
            held: number;
            /** @description Of `discounted`, the discounts of the active holds (what the budget has promised but not yet given); left out as `discounted` is. */
            held_discounted?: components["schemas"]["Money"];
            /** @description For a campaign's code: the uses of the code itself, held and captured (`total`, `held` and `discounted` are then the campaign's, across all of its codes). */
            per_code?: number;
            /** @description The uses counting now, held and captured (for a campaign's code, the campaign's). */
            total: number;
        };
        /** @description The codes a call created (the same for a retry with the same `Idempotency-Key`): the answer of `POST /v1/campaigns/{id}/codes`. */
        CodesCreated: {
            /** @description The campaign's id. */
            campaign: components["schemas"]["Code"];
            /** @description The codes, in the order they were added. */
            codes: components["schemas"]["Code"][];
            /** @description How many codes the call created. */
            created: number;
        };
        /** @description The body of `POST /v1/campaigns/{id}/codes` (and of the campaign object's call that plans them): `count` codes to generate (each `#` of `pattern` one character of `charset`, drawn by a cryptographic generator; at least 8 `#`, and 1,000,000 combinations per code of the campaign after the call), or `codes` to import. 1 to 10,000 a call, 1,000,000 a campaign. */
        CodesRequest: {
            /**
             * @description The characters a generated code's `#` are drawn from.
             * @default ABCDEFGHJKLMNPQRSTUVWXYZ23456789
             */
            charset?: string;
            /** @description The codes to import. */
            codes?: components["schemas"]["CodeInput"][];
            /** @description How many codes to generate. */
            count?: number;
            /**
             * @description The pattern of a generated code: each `#` one character of `charset`.
             * @default ####-####-####
             */
            pattern?: string;
        };
        /** @description Every compare-and-set attempt lost (with `Retry-After`); retry with the same key. */
        ConflictProblem: {
            /** @constant */
            status?: 409;
            /** @constant */
            title?: "Busy, retry with the same idempotency key";
            /** @constant */
            type?: "/problems/conflict";
        };
        /** @description Test builds only: the store conformance suite passed in a code's object. */
        Conformance: {
            /**
             * @description Always `passed` (a failed check fails the request).
             * @constant
             */
            conformance: "passed";
            /** @description Whether a transaction that failed part way left nothing behind. */
            failed_transaction_rolled_back: boolean;
            /**
             * @description The store it ran on: `sqlite`.
             * @constant
             */
            store: "sqlite";
        };
        /**
         * @description An ISO 4217 code the core knows (src/values/iso4217.rs: active currencies with minor units), upper case.
         * @enum {string}
         */
        Currency: "AED" | "AFN" | "ALL" | "AMD" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BOV" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHE" | "CHF" | "CHW" | "CLF" | "CLP" | "CNY" | "COP" | "COU" | "CRC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MXV" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "USN" | "UYI" | "UYU" | "UYW" | "UZS" | "VED" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XCD" | "XCG" | "XOF" | "XPF" | "YER" | "ZAR" | "ZMW" | "ZWG";
        /** @description Who is buying: 1 to 256 characters after trimming, no control characters. */
        CustomerId: string;
        /** @description Who is buying, as given: trimmed by the API, then 1 to 256 characters, no control characters. */
        CustomerIdInput: string;
        /** @description A code's whole definition, as the admin sees it (with its audience). Optional fields are left out when unset. */
        Definition: {
            /** @description The kill switch: an inactive code is refused with `inactive`. */
            active: boolean;
            applies_to?: components["schemas"]["AppliesTo"];
            /** @description The customers the code is assigned to, sorted, without repeats; left out for a public code. */
            audience?: components["schemas"]["CustomerId"][];
            /** @description An automatic promotion: it joins a basket without being typed, when a request says `"automatic": true` (see `GET /v1/automatic`). Written only when true. */
            automatic?: boolean;
            code: components["schemas"]["Code"];
            /** @description The classes of code this code may share a basket with (none when left out): two codes combine only when each lists the other's class. Written in the order of application. */
            combines_with?: components["schemas"]["CodeClass"][];
            discount: components["schemas"]["Discount"];
            /** @description The first moment the code is no longer valid (exclusive). */
            ends_at?: components["schemas"]["Timestamp"];
            /**
             * @description A first-order code: only a customer with `customer_orders: 0` may use it (its `limits.per_customer` defaults to 1); left out otherwise.
             * @constant
             */
            first_order?: true;
            limits?: components["schemas"]["UsageLimits"];
            /** @description The smallest eligible subtotal the code applies to. */
            minimum?: components["schemas"]["Money"];
            /** @description Among automatic promotions, lower joins first (then by code). Written with `automatic`, or when not 100. */
            priority?: number;
            /** @description How many shard objects the code's holds and captures are spread over (by the customer, else the idempotency key), each deciding inside an allotment of the cap its object grants. Written only when above 1. It may change on a defined code, to 2 or more (never back to 1), at most 8 times: its uses and keys stay where they were taken. */
            shards?: number;
            /** @description The first moment the code is valid (inclusive). */
            starts_at?: components["schemas"]["Timestamp"];
        };
        /** @description The body of `PUT /v1/codes/{code}`: the core's definition. Only `code` and `discount` are required; `active` defaults to true, no `applies_to` means every line, no `audience` means public, no `combines_with` means the code shares a basket with no other code. Unknown fields are refused; the window must end after it starts, and every amount must be in one currency. */
        DefinitionInput: {
            /** @default true */
            active?: boolean;
            applies_to?: components["schemas"]["AppliesToInput"];
            audience?: components["schemas"]["CustomerIdInput"][];
            /**
             * @description An automatic promotion: it joins a basket without being typed (requests with `"automatic": true`).
             * @default false
             */
            automatic?: boolean;
            code: components["schemas"]["CodeInput"];
            /** @description The classes of code this code may share a basket with; default none. Two codes combine only when each lists the other's class. */
            combines_with?: components["schemas"]["CodeClass"][];
            discount: components["schemas"]["DiscountInput"];
            ends_at?: components["schemas"]["TimestampInput"];
            /**
             * @description A first-order code: quotes, holds and captures need `customer` and `customer_orders`, and `customer_orders` above 0 is refused with `not_first_order`; `limits.per_customer` defaults to 1.
             * @default false
             */
            first_order?: boolean;
            limits?: components["schemas"]["UsageLimitsInput"];
            minimum?: components["schemas"]["MoneyInput"];
            /**
             * @description Among automatic promotions, lower joins first (then by code).
             * @default 100
             */
            priority?: number;
            /**
             * @description Spreads the code's holds and captures over this many shard objects (by the customer, else the idempotency key), for a code too hot for one object; its caps stay exact: the code's object grants each shard an allotment of the uses and of the budget left.
             * @default 1
             */
            shards?: number;
            starts_at?: components["schemas"]["TimestampInput"];
        };
        /** @description `GET /v1/webhooks/{id}/deliveries`: a page of an endpoint's deliveries, in the order of their first try. */
        DeliveryList: {
            /** @description The deliveries on this page. */
            deliveries: components["schemas"]["DeliveryRecord"][];
            /** @description The `after` of the next page, or null on the last. */
            next: string | null;
        };
        /** @description One event's delivery to one endpoint: its tries and what came of the last. */
        DeliveryRecord: {
            /** @description When its write committed. */
            at: components["schemas"]["Timestamp"];
            /** @description Tries so far. */
            attempts: number;
            /** @description What went wrong last, or null. */
            error: string | null;
            /** @description The event's id: its `webhook-id`, the same on every try. */
            event_id: string;
            /** @description When the next try is due, while pending. */
            next_try: components["schemas"]["Timestamp"] | null;
            /** @description The object that keeps the event (a code, or `campaign:<id>`). */
            object: string;
            /** @description Its position in that object's events. */
            seq: number;
            /** @description Where it stands. */
            state: components["schemas"]["DeliveryState"];
            /** @description The status the endpoint answered last, or null (no answer: see `error`). */
            status: number | null;
            /** @description When it was last tried. */
            tried_at: components["schemas"]["Timestamp"] | null;
            /** @description Its type. */
            type: components["schemas"]["EventType"];
        };
        /** @description Where one event's delivery to one endpoint stands. */
        DeliveryState: "pending" | "delivered" | "failed";
        /** @description The body of `POST /demo/cancel`: releases the checkout attempt's hold or capture (`demo-<attempt>`). With `codes` in place of `code`: every code of the stack is released. */
        DemoCancelRequest: {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Give back the automatic promotions with a use under the key too (beside `code` or `codes`, or alone). */
            automatic?: boolean;
            code: components["schemas"]["CodeInput"];
            codes?: never;
            /** @description Why, for the record: at most 200 characters, no control characters. */
            reason?: string;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Give back the automatic promotions with a use under the key too (beside `code` or `codes`, or alone). */
            automatic?: boolean;
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes: components["schemas"]["CodeInput"][];
            /** @description Why, for the record: at most 200 characters, no control characters. */
            reason?: string;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Give back the automatic promotions with a use under the key too (beside `code` or `codes`, or alone). */
            automatic: boolean;
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            /** @description Why, for the record: at most 200 characters, no control characters. */
            reason?: string;
        };
        /** @description The body of `POST /demo/hold`: a hold's body and `attempt`. With `codes` in place of `code`: a stack's hold, as `POST /v1/holds` takes it. */
        DemoHoldRequest: {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            lines?: never;
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            lines?: never;
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket?: never;
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            lines?: never;
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket?: never;
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket: components["schemas"]["Basket"];
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            lines?: never;
            shipping?: never;
            total?: never;
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket: components["schemas"]["Basket"];
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            lines?: never;
            shipping?: never;
            total?: never;
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket: components["schemas"]["Basket"];
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            lines?: never;
            shipping?: never;
            total?: never;
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        };
        /** @description The body of `POST /demo/pay`: a capture's body and `attempt`. With `codes` in place of `code`: a stack's capture, as `POST /v1/captures` takes it (`quote`: the stack's quote as shown). */
        DemoPayRequest: {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            lines?: never;
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (any part changed is `quote_changed` for that part, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            lines?: never;
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (any part changed is `quote_changed` for that part, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket?: never;
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            lines?: never;
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (any part changed is `quote_changed` for that part, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (any part changed is `quote_changed` for that part, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (any part changed is `quote_changed` for that part, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket?: never;
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (any part changed is `quote_changed` for that part, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket: components["schemas"]["Basket"];
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            lines?: never;
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (any part changed is `quote_changed` for that part, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            shipping?: never;
            total?: never;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket: components["schemas"]["Basket"];
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            lines?: never;
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (any part changed is `quote_changed` for that part, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            shipping?: never;
            total?: never;
        } | {
            /** @description The checkout attempt's id, 1 to 64 visible ASCII characters (the page sends a UUID; empty or longer is a 400 naming `attempt`): the hold and capture are keyed `demo-<attempt>`. */
            attempt: string;
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket: components["schemas"]["Basket"];
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none, as on the API's holds, captures and releases: every code is held, captured or released under `demo-<attempt>`, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            lines?: never;
            /** @description The quote the buyer was shown: the capture is refused with `quote_changed` when pricing now gives another discount or payable. With `codes`: the stack's quote as shown (any part changed is `quote_changed` for that part, and nothing is captured). */
            quote?: components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
            shipping?: never;
            total?: never;
        };
        /** @description What the code takes off: a percent of the eligible subtotal (at most `max`), a fixed amount (at most `max`), or the shipping (at most `max`). Buy X get Y: for each `buy` (units, or money spent on units not given), `get.quantity` units at `get.percent` or `get.amount` off each, at most `max_applications` times, the cheapest (or most expensive) units given; class `product`. Tiered: the highest tier the eligible subtotal (`by: subtotal`) or units (`by: quantity`) reach applies its percent or fixed discount. */
        Discount: {
            /** @enum {string} */
            kind: "percent" | "fixed" | "free_shipping" | "buy_x_get_y" | "tiered";
        } & ({
            /** @constant */
            kind: "percent";
            max?: components["schemas"]["Money"];
            /** @description Above 0, at most 100, at most 4 decimal places, written without trailing zeros. */
            percent: string;
        } | {
            amount: components["schemas"]["Money"];
            /** @constant */
            kind: "fixed";
            max?: components["schemas"]["Money"];
        } | {
            /** @constant */
            kind: "free_shipping";
            max?: components["schemas"]["Money"];
        } | {
            /** @description What each application needs bought: `quantity` units or an `amount` spent, on `applies_to` (every line when left out). */
            buy: {
                amount?: components["schemas"]["Money"];
                applies_to?: components["schemas"]["AppliesTo"];
                quantity?: number;
            };
            /** @description What each application gives: `quantity` units of `applies_to` (the buy's when left out) at `percent` (100 is free) or `amount` off each unit (never above its price). */
            get: {
                amount?: components["schemas"]["Money"];
                applies_to?: components["schemas"]["AppliesTo"];
                /** @description Above 0, at most 100, at most 4 decimal places, written without trailing zeros. */
                percent?: string;
                quantity: number;
            };
            /** @constant */
            kind: "buy_x_get_y";
            max?: components["schemas"]["Money"];
            /** @description At most this many applications (as many as the basket holds when left out). */
            max_applications?: number;
            /**
             * @default cheapest
             * @enum {string}
             */
            selection: "cheapest" | "most_expensive";
        } | {
            /** @enum {string} */
            by: "subtotal" | "quantity";
            /** @constant */
            kind: "tiered";
            /** @description `from` strictly increasing: money for `by: subtotal`, a count of units for `by: quantity`; each tier's discount a `percent` or `fixed` one. */
            tiers: {
                discount: components["schemas"]["Discount"];
                from: components["schemas"]["TierFrom"];
            }[];
        });
        /** @description What the code takes off: a percent of the eligible subtotal (at most `max`), a fixed amount (at most `max`), or the shipping (at most `max`). Buy X get Y: for each `buy` (units, or money spent on units not given), `get.quantity` units at `get.percent` or `get.amount` off each, at most `max_applications` times, the cheapest (or most expensive) units given; class `product`. Tiered: the highest tier the eligible subtotal (`by: subtotal`) or units (`by: quantity`) reach applies its percent or fixed discount. */
        DiscountInput: {
            /** @enum {string} */
            kind: "percent" | "fixed" | "free_shipping" | "buy_x_get_y" | "tiered";
        } & ({
            /** @constant */
            kind: "percent";
            max?: components["schemas"]["MoneyInput"];
            /** @description A decimal string above 0 and at most 100, at most 4 decimal places. */
            percent: string;
        } | {
            amount: components["schemas"]["MoneyInput"];
            /** @constant */
            kind: "fixed";
            max?: components["schemas"]["MoneyInput"];
        } | {
            /** @constant */
            kind: "free_shipping";
            max?: components["schemas"]["MoneyInput"];
        } | {
            /** @description What each application needs bought: `quantity` units or an `amount` spent, on `applies_to` (every line when left out). */
            buy: {
                amount?: components["schemas"]["MoneyInput"];
                applies_to?: components["schemas"]["AppliesToInput"];
                quantity?: number;
            };
            /** @description What each application gives: `quantity` units of `applies_to` (the buy's when left out) at `percent` (100 is free) or `amount` off each unit (never above its price). */
            get: {
                amount?: components["schemas"]["MoneyInput"];
                applies_to?: components["schemas"]["AppliesToInput"];
                /** @description A decimal string above 0 and at most 100, at most 4 decimal places. */
                percent?: string;
                quantity: number;
            };
            /** @constant */
            kind: "buy_x_get_y";
            max?: components["schemas"]["MoneyInput"];
            /** @description At most this many applications (as many as the basket holds when left out). */
            max_applications?: number;
            /**
             * @default cheapest
             * @enum {string}
             */
            selection?: "cheapest" | "most_expensive";
        } | {
            /** @enum {string} */
            by: "subtotal" | "quantity";
            /** @constant */
            kind: "tiered";
            /** @description `from` strictly increasing: money for `by: subtotal`, a count of units for `by: quantity`; each tier's discount a `percent` or `fixed` one. */
            tiers: {
                discount: components["schemas"]["DiscountInput"];
                from: components["schemas"]["TierFromInput"];
            }[];
        });
        /**
         * @description What an event says happened; its JSON name is the payload's `type`.
         *
         *     # Example
         *
         *     ``` use promocodes::wire::EventType;
         *
         *     assert_eq!(EventType::BudgetThreshold.as_str(), "budget.threshold"); assert_eq!(EventType::parse("code.exhausted"), Some(EventType::CodeExhausted)); assert_eq!(EventType::parse("code.deleted"), None); ```
         */
        EventType: "redemption.held" | "redemption.captured" | "redemption.released" | "redemption.expired" | "code.exhausted" | "budget.threshold" | "campaign.exhausted" | "code.updated" | "campaign.updated";
        /** @description Test builds only: when an instance of a code's object wrote the code's figures, and how many counted events wait in memory. */
        FigureWrites: {
            /** @description The code. */
            code: components["schemas"]["Code"];
            /** @description Events counted in memory, not yet written. */
            pending: number;
            /** @description How many times this instance of the code's object wrote figures to SQLite. */
            writes: number;
            /** @description When, in Unix milliseconds (the object's clock), oldest first. */
            written_at: number[];
        };
        /** @description What happened to a code in a period. */
        Figures: {
            /** @description New captures. */
            captures: number;
            /** @description Requests that lost every compare-and-set attempt (409). */
            conflicts: number;
            /** @description The discounts of new captures in the period, in the code's currency; left out for a code without a currency of its own. What a budget has spent is `discounted` less `returned` (held uses aside). */
            discounted?: components["schemas"]["Money"];
            /** @description Holds that expired before they were captured or released. */
            expired: number;
            /** @description New holds. */
            holds: number;
            /** @description Quotes priced. */
            quotes: number;
            /** @description Refusals by rejection code, per operation. */
            rejections: {
                /** @description On `POST /v1/captures` (and the payment provider's captures). */
                captures: {
                    [key: string]: number;
                };
                /** @description On `POST /v1/holds`. */
                holds: {
                    [key: string]: number;
                };
                /** @description Shown by the checkout page, as it reported them (`POST /v1/codes/{code}/tries`): refusals the browser priced, which no quote of the Worker's counts. */
                page: {
                    [key: string]: number;
                };
                /** @description On `POST /v1/quotes`. */
                quotes: {
                    [key: string]: number;
                };
            };
            /** @description Releases of holds and captures. */
            releases: number;
            /** @description Answers that replayed an earlier capture, hold or release. */
            replays: number;
            /** @description The discounts of captures released in the period, in the code's currency; left out for a code without a currency of its own. */
            returned?: components["schemas"]["Money"];
            /** @description Tries of the code the checkout page reported (`POST /v1/codes/{code}/tries` with `{}`: a buyer typed it and the page looked it up); the refusals it then showed are in `rejections.page`. */
            tries: number;
        };
        /** @description A use reserved for the buyer until `expires_at`. A replay answers with the reservation as it stands now. */
        Hold: {
            expires_at: components["schemas"]["Timestamp"];
            key: components["schemas"]["IdempotencyKey"];
            quote: components["schemas"]["Quote"];
            /** @description True when a known key answered: nothing was written. */
            replayed: boolean;
            state: components["schemas"]["ReservationState"];
            usage: components["schemas"]["UsageCounts"];
        };
        /** @description The body of `POST /v1/holds`: a quote's body and `ttl_seconds`. */
        HoldRequest: {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket?: never;
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket?: never;
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket: components["schemas"]["Basket"];
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            shipping?: never;
            total?: never;
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket: components["schemas"]["Basket"];
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            shipping?: never;
            total?: never;
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket: components["schemas"]["Basket"];
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            shipping?: never;
            total?: never;
            /**
             * @description How long the hold counts, in seconds.
             * @default 900
             */
            ttl_seconds?: number;
        };
        /** @description One hour's figures. */
        HourFigures: {
            /** @description What happened in it. */
            figures: components["schemas"]["Figures"];
            /** @description The hour's first moment. */
            hour: components["schemas"]["Timestamp"];
        };
        /** @description 1 to 255 visible ASCII characters (`!` to `~`), compared exactly. */
        IdempotencyKey: string;
        /** @description The key was used for another customer or basket. */
        IdempotencyKeyReusedProblem: {
            /** @constant */
            status?: 422;
            /** @constant */
            title?: "Idempotency key used for another redemption";
            /** @constant */
            type?: "/problems/idempotency_key_reused";
        };
        /** @description A runtime error: a bug or an outage, never bad input. */
        InternalProblem: {
            /** @constant */
            status?: 500;
            /** @constant */
            title?: "Internal error";
            /** @constant */
            type?: "/problems/internal";
        };
        /** @description A signed Stripe webhook body that is not an event promocodes can read (not an event, or a handled type with an unusable object). */
        InvalidEventProblem: {
            /** @constant */
            status?: 400;
            /** @constant */
            title?: "Not an event promocodes can read";
            /** @constant */
            type?: "/problems/invalid_event";
        };
        /** @description A malformed body, path code, header or query value (`detail` names the field). */
        InvalidRequestProblem: {
            /** @constant */
            status?: 400;
            /** @constant */
            title?: "Invalid request";
            /** @constant */
            type?: "/problems/invalid_request";
        };
        /** @description A Stripe webhook whose `Stripe-Signature` is missing, wrong, or more than 300 s from now: nothing happened. */
        InvalidSignatureProblem: {
            /** @constant */
            status?: 400;
            /** @constant */
            title?: "Webhook signature missing or wrong";
            /** @constant */
            type?: "/problems/invalid_signature";
        };
        /** @description One line of a basket. */
        Line: {
            categories?: components["schemas"]["Category"][];
            quantity: number;
            sku: components["schemas"]["Sku"];
            unit_price: components["schemas"]["MoneyInput"];
        };
        /** @description The route exists, not for this method; `Allow` lists the methods it takes. */
        MethodNotAllowedProblem: {
            /** @constant */
            status?: 405;
            /** @constant */
            title?: "Method not allowed";
            /** @constant */
            type?: "/problems/method_not_allowed";
        };
        /** @description One minute's figures. */
        MinuteFigures: {
            /** @description What happened in it. */
            figures: components["schemas"]["Figures"];
            /** @description The minute's first moment. */
            minute: components["schemas"]["Timestamp"];
        };
        /** @description A secret or binding the route needs is not configured. */
        MisconfiguredProblem: {
            /** @constant */
            status?: 500;
            /** @constant */
            title?: "Server misconfigured";
            /** @constant */
            type?: "/problems/misconfigured";
        };
        /** @description A hold or capture without an `Idempotency-Key` header. */
        MissingIdempotencyKeyProblem: {
            /** @constant */
            status?: 400;
            /** @constant */
            title?: "Idempotency-Key header required";
            /** @constant */
            type?: "/problems/missing_idempotency_key";
        };
        /** @description An amount as the API writes it: a decimal string with exactly the currency's minor-unit places (`"8.00"`, JPY `"1000"`), never a number. */
        Money: {
            amount: string;
            currency: components["schemas"]["Currency"];
        };
        /** @description An amount as a request gives it: a non-negative decimal string (`"80"`, `"80.00"`), at most the currency's places, at most 10^15; never a number. */
        MoneyInput: {
            amount: string;
            currency: components["schemas"]["Currency"];
        };
        /** @description No such route: any other path under `/v1/` or `/demo/` (the demo paths too when `DEMO` is not set). */
        NotFoundProblem: {
            /** @constant */
            status?: 404;
            /** @constant */
            title?: "No such route";
            /** @constant */
            type?: "/problems/not_found";
        };
        /** @description The body is over the route's limit (`detail` names it). */
        PayloadTooLargeProblem: {
            /** @constant */
            status?: 413;
            /** @constant */
            title?: "Request body too large";
            /** @constant */
            type?: "/problems/payload_too_large";
        };
        /** @description A write whose `If-Match` tag is no longer the stored definition's, or whose `If-None-Match: *` finds one (with the current `ETag` when there is a definition); nothing was written. Read the code again and reapply the change. */
        PreconditionFailedProblem: {
            /** @constant */
            status?: 412;
            /** @constant */
            title?: "The definition changed since it was read";
            /** @constant */
            type?: "/problems/precondition_failed";
        };
        /** @description An RFC 9457 problem document (`application/problem+json`). Every error of the API is one; `type` tells which, and fixes `title` and `status`. */
        Problem: {
            /** @description With `quote_changed`: the quote pricing gives now. */
            current?: components["schemas"]["Quote"];
            /** @description A sentence about this occurrence (for `rejected`, the buyer's sentence). */
            detail: string;
            /** @description On a refused capture: the quote that no longer holds (the one pinned, else the hold's, else the basket priced now). */
            quote?: components["schemas"]["Quote"];
            /** @description On a rejection: the rule that refused (for a stack, the first code's). */
            rejection?: components["schemas"]["RejectionCode"];
            /** @description On a refused stack of codes: every code that refused and why, in the order the codes apply (one entry when a code's object refused its write); `rejection` is the first's. Nothing is recorded. */
            rejections?: components["schemas"]["StackRefusal"][];
            /** @description The HTTP status of the answer. */
            status: number;
            /** @description A short summary of the type, the same for every problem of the type. */
            title: string;
            /** @description The problem's type, a path naming it: `/problems/<slug>`, such as `/problems/rejected` or `/problems/conflict`. */
            type: components["schemas"]["ProblemType"];
        } & (components["schemas"]["NotFoundProblem"] | components["schemas"]["MethodNotAllowedProblem"] | components["schemas"]["UnauthorizedProblem"] | components["schemas"]["PayloadTooLargeProblem"] | components["schemas"]["UnsupportedMediaTypeProblem"] | components["schemas"]["TooManyRequestsProblem"] | components["schemas"]["InvalidRequestProblem"] | components["schemas"]["CodeMismatchProblem"] | components["schemas"]["MissingIdempotencyKeyProblem"] | components["schemas"]["UnknownCodeProblem"] | components["schemas"]["UnknownKeyProblem"] | components["schemas"]["RejectedProblem"] | components["schemas"]["IdempotencyKeyReusedProblem"] | components["schemas"]["ConflictProblem"] | components["schemas"]["StoreUnavailableProblem"] | components["schemas"]["MisconfiguredProblem"] | components["schemas"]["InternalProblem"] | components["schemas"]["InvalidSignatureProblem"] | components["schemas"]["InvalidEventProblem"] | components["schemas"]["WebhookConflictProblem"] | components["schemas"]["PreconditionFailedProblem"] | components["schemas"]["CodeExistsProblem"] | components["schemas"]["UnknownWebhookProblem"] | components["schemas"]["UnknownDeliveryProblem"] | components["schemas"]["WebhookLimitProblem"]);
        /**
         * @description `/problems/<slug>`, one per kind of error (worker/src/problem.rs). Relative URI references; each is described by its `*Problem` schema.
         * @enum {string}
         */
        ProblemType: "/problems/not_found" | "/problems/method_not_allowed" | "/problems/unauthorized" | "/problems/payload_too_large" | "/problems/unsupported_media_type" | "/problems/too_many_requests" | "/problems/invalid_request" | "/problems/code_mismatch" | "/problems/missing_idempotency_key" | "/problems/unknown_code" | "/problems/unknown_key" | "/problems/rejected" | "/problems/idempotency_key_reused" | "/problems/conflict" | "/problems/store_unavailable" | "/problems/misconfigured" | "/problems/internal" | "/problems/invalid_signature" | "/problems/invalid_event" | "/problems/precondition_failed" | "/problems/code_exists" | "/problems/unknown_webhook" | "/problems/unknown_delivery" | "/problems/webhook_limit";
        /** @description A code as anyone may see it: the definition without the audience's customers, its live usage and, when capped, what remains. */
        PublicCode: {
            /** @description The kill switch: an inactive code is refused with `inactive`. */
            active: boolean;
            applies_to?: components["schemas"]["AppliesTo"];
            /** @description Whether the code is assigned to named customers (who they are is not public). */
            assigned: boolean;
            /** @description An automatic promotion: it joins a basket without being typed, when a request says `"automatic": true` (see `GET /v1/automatic`). Written only when true. */
            automatic?: boolean;
            /** @description For a campaign's code: the campaign it belongs to (its definition is the campaign's, with `code` the code). */
            campaign?: components["schemas"]["Code"];
            code: components["schemas"]["Code"];
            /** @description The classes of code this code may share a basket with (none when left out): two codes combine only when each lists the other's class. Written in the order of application. */
            combines_with?: components["schemas"]["CodeClass"][];
            discount: components["schemas"]["Discount"];
            /** @description The first moment the code is no longer valid (exclusive). */
            ends_at?: components["schemas"]["Timestamp"];
            /**
             * @description A first-order code: only a customer with `customer_orders: 0` may use it (its `limits.per_customer` defaults to 1); left out otherwise.
             * @constant
             */
            first_order?: true;
            limits?: components["schemas"]["UsageLimits"];
            /** @description The smallest eligible subtotal the code applies to. */
            minimum?: components["schemas"]["Money"];
            /** @description Among automatic promotions, lower joins first (then by code). Written with `automatic`, or when not 100. */
            priority?: number;
            /** @description Uses left: the least of what the total cap, a campaign code's `uses_per_code` and the budget leave (a budget counted in uses at the discount's full size: a fixed amount or its `max`, rounded down with `refuse` and up with `partial`; a discount of no fixed size counts only once nothing is left). Only when one of them bounds it. */
            remaining?: number;
            /** @description What is left of the budget (never below zero); only when the code has one. */
            remaining_budget?: components["schemas"]["Money"];
            /** @description How many shard objects the code's holds and captures are spread over (by the customer, else the idempotency key), each deciding inside an allotment of the cap its object grants. Written only when above 1. It may change on a defined code, to 2 or more (never back to 1), at most 8 times: its uses and keys stay where they were taken. */
            shards?: number;
            /** @description The first moment the code is valid (inclusive). */
            starts_at?: components["schemas"]["Timestamp"];
            usage: components["schemas"]["CodeUsage"];
            /** @description For a campaign's code: how often the code itself may be used. */
            uses_per_code?: number;
        };
        /** @description A code's definition as anyone may see it: without the audience's customers (`assigned` says whether it has any). */
        PublicDefinition: {
            /** @description The kill switch: an inactive code is refused with `inactive`. */
            active: boolean;
            applies_to?: components["schemas"]["AppliesTo"];
            /** @description Whether the code is assigned to named customers (who they are is not public). */
            assigned: boolean;
            /** @description An automatic promotion: it joins a basket without being typed, when a request says `"automatic": true` (see `GET /v1/automatic`). Written only when true. */
            automatic?: boolean;
            /** @description For a campaign's code: the campaign it belongs to (its definition is the campaign's, with `code` the code). */
            campaign?: components["schemas"]["Code"];
            code: components["schemas"]["Code"];
            /** @description The classes of code this code may share a basket with (none when left out): two codes combine only when each lists the other's class. Written in the order of application. */
            combines_with?: components["schemas"]["CodeClass"][];
            discount: components["schemas"]["Discount"];
            /** @description The first moment the code is no longer valid (exclusive). */
            ends_at?: components["schemas"]["Timestamp"];
            /**
             * @description A first-order code: only a customer with `customer_orders: 0` may use it (its `limits.per_customer` defaults to 1); left out otherwise.
             * @constant
             */
            first_order?: true;
            limits?: components["schemas"]["UsageLimits"];
            /** @description The smallest eligible subtotal the code applies to. */
            minimum?: components["schemas"]["Money"];
            /** @description Among automatic promotions, lower joins first (then by code). Written with `automatic`, or when not 100. */
            priority?: number;
            /** @description How many shard objects the code's holds and captures are spread over (by the customer, else the idempotency key), each deciding inside an allotment of the cap its object grants. Written only when above 1. It may change on a defined code, to 2 or more (never back to 1), at most 8 times: its uses and keys stay where they were taken. */
            shards?: number;
            /** @description The first moment the code is valid (inclusive). */
            starts_at?: components["schemas"]["Timestamp"];
            /** @description For a campaign's code: how often the code itself may be used. */
            uses_per_code?: number;
        };
        /** @description A priced basket: `discount + payable == total`, exactly. A basket with lines also has each line's part of the discount, and the shipping's. */
        Quote: {
            /**
             * @description Only when a budget that takes a partial discount clipped it to what was left.
             * @constant
             */
            budget_clipped?: true;
            code: components["schemas"]["Code"];
            /** @description With `budget_clipped`: the discount before the clip. */
            desired?: components["schemas"]["Money"];
            discount: components["schemas"]["Money"];
            lines?: components["schemas"]["QuoteLine"][];
            /** @description A tiered code below its top tier: the next tier and what is missing. */
            next_tier?: components["schemas"]["QuoteNextTier"];
            /** @description Something the buyer should know (e.g. why free shipping took nothing off). */
            note?: string;
            payable: components["schemas"]["Money"];
            quoted_at: components["schemas"]["Timestamp"];
            shipping?: components["schemas"]["QuoteShipping"];
            /** @description A tiered code's tier reached. */
            tier?: components["schemas"]["QuoteTier"];
            total: components["schemas"]["Money"];
        };
        QuoteLine: {
            amount: components["schemas"]["Money"];
            discount: components["schemas"]["Money"];
            sku: components["schemas"]["Sku"];
        };
        /** @description The tier above the one reached (or the first): where it starts and the money or units still missing ("spend EUR 20.00 more for 15% off"). */
        QuoteNextTier: {
            from: components["schemas"]["TierFrom"];
            index: number;
            missing: components["schemas"]["TierFrom"];
        };
        /** @description The body of `POST /v1/quotes`: a code (or several: `codes`, in place of `code`) and a basket, inline (`total`, or `lines` and `shipping`) or nested as `basket`; `customer` needs a server's token. Unknown fields are refused; `code` and `codes` together are bad input. */
        QuoteRequest: {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code?: never;
            /** @description Several codes for one basket, in place of `code`: 1 to 5, each once (after normalising). Each code's own rules, `combines_with` and the order of application decide (see `StackQuote`). */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket?: never;
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes for one basket, in place of `code`: 1 to 5, each once (after normalising). Each code's own rules, `combines_with` and the order of application decide (see `StackQuote`). */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            shipping?: never;
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: components["schemas"]["MoneyInput"];
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket?: never;
            code?: never;
            /** @description Several codes for one basket, in place of `code`: 1 to 5, each once (after normalising). Each code's own rules, `combines_with` and the order of application decide (see `StackQuote`). */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket?: never;
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes for one basket, in place of `code`: 1 to 5, each once (after normalising). Each code's own rules, `combines_with` and the order of application decide (see `StackQuote`). */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            /** @description Every amount in one currency. */
            lines: components["schemas"]["Line"][];
            /** @description With `lines` only. */
            shipping?: components["schemas"]["MoneyInput"];
            total?: never;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket: components["schemas"]["Basket"];
            code: components["schemas"]["CodeInput"];
            codes?: never;
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            shipping?: never;
            total?: never;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic?: boolean;
            basket: components["schemas"]["Basket"];
            code?: never;
            /** @description Several codes for one basket, in place of `code`: 1 to 5, each once (after normalising). Each code's own rules, `combines_with` and the order of application decide (see `StackQuote`). */
            codes: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            shipping?: never;
            total?: never;
        } | {
            /** @description Offer the shop's automatic promotions too (beside `code` or `codes`, or alone): the typed codes are taken first, then each active automatic promotion by priority then code joins when it combines with those taken; the others are listed in `skipped`. The answer is then a stack's. */
            automatic: boolean;
            basket: components["schemas"]["Basket"];
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes for one basket, in place of `code`: 1 to 5, each once (after normalising). Each code's own rules, `combines_with` and the order of application decide (see `StackQuote`). */
            codes?: components["schemas"]["CodeInput"][];
            customer?: components["schemas"]["CustomerIdInput"];
            /** @description With `customer`: the orders the shop knows this customer placed before (the shop's server vouches for it). A first-order code needs it. */
            customer_orders?: number;
            lines?: never;
            shipping?: never;
            total?: never;
        };
        QuoteShipping: {
            amount: components["schemas"]["Money"];
            discount: components["schemas"]["Money"];
        };
        /** @description The tier of a tiered code the quote reached: its position (from 0) and where it starts. */
        QuoteTier: {
            from: components["schemas"]["TierFrom"];
            index: number;
        };
        /** @description A use spent (or, replayed, given back since). */
        Receipt: {
            key: components["schemas"]["IdempotencyKey"];
            quote: components["schemas"]["Quote"];
            reason?: string;
            released_at?: components["schemas"]["Timestamp"];
            /** @description True when a known key answered: nothing was written. */
            replayed: boolean;
            /** @enum {string} */
            state: "captured" | "released";
            usage: components["schemas"]["UsageCounts"];
        };
        /** @description One hold or capture in a code's history, with its state at the moment of the listing. */
        RecordedRedemption: {
            /** @description When it was captured. */
            captured_at?: components["schemas"]["Timestamp"];
            /** @description Who redeemed, if known. */
            customer: components["schemas"]["CustomerId"] | null;
            /** @description When a hold stops counting. */
            expires_at?: components["schemas"]["Timestamp"];
            /** @description On a capture made under the key of a hold that had expired (for the hold's customer and basket): when that hold expired. The hold stays in the history, `expired`. */
            hold_expired_at?: components["schemas"]["Timestamp"];
            /** @description The key it was recorded under, if any. */
            idempotency_key: components["schemas"]["IdempotencyKey"] | null;
            /** @description What is charged. */
            quote: components["schemas"]["Quote"];
            /** @description Why it was released. */
            reason?: string;
            /** @description When it was released. */
            released_at?: components["schemas"]["Timestamp"];
            /** @description Its position in the code's history (the pagination cursor). */
            seq: number;
            /** @description `held`, `captured`, `released` or `expired`, at the moment of the listing. */
            state: components["schemas"]["ReservationState"];
            /** @description The counts right after its last change (`discounted` as money in the quote's currency). */
            usage: components["schemas"]["UsageCounts"];
            /**
             * @description What it was when released: `held` or `captured`.
             * @enum {string}
             */
            was?: "held" | "captured";
        };
        /** @description One page of a code's holds, captures, refused payment captures and refunds that came before their payment, oldest first. */
        RedemptionList: {
            code: components["schemas"]["Code"];
            /** @description The `after` of the next page (a `seq`; for a sharded code, one position for its object and each shard, joined by `~`), or null on the last. */
            next: string | null;
            redemptions: (components["schemas"]["RecordedRedemption"] | components["schemas"]["RefusedPaymentCapture"] | components["schemas"]["RefundBeforePayment"])[];
        };
        /** @description A full refund (`charge.refunded`) that arrived before anything was held or captured under its PaymentIntent's id: recorded as released, final for that PaymentIntent (a later `payment_intent.succeeded` captures nothing). */
        RefundBeforePayment: {
            /** @description The payment's id. */
            idempotency_key: components["schemas"]["IdempotencyKey"];
            /** @description Why (the refund's reason). */
            reason: string;
            /** @description When it was recorded. */
            released_at: components["schemas"]["Timestamp"];
            /** @description Its position in the code's history. */
            seq: number;
            /**
             * @description Always `released`.
             * @constant
             */
            state: "released";
            /** @description The code's counts when it was recorded (unchanged by it); for a campaign's code, the campaign's, with the code's own uses in `per_code`. */
            usage: components["schemas"]["UsageCounts"];
        };
        /** @description A payment capture refused after the money moved (a Stripe webhook's capture that a rule refused): recorded once per PaymentIntent, for the operator to refund or honour. */
        RefusedPaymentCapture: {
            charged: {
                amount: string;
                currency: string;
            };
            customer?: string | null;
            detail: string;
            event_id: string;
            idempotency_key: components["schemas"]["IdempotencyKey"];
            quote?: components["schemas"]["Quote"] | null;
            refused_at: components["schemas"]["Timestamp"];
            rejection?: components["schemas"]["RejectionCode"] | null;
            seq: number;
            /** @constant */
            state: "refused";
        };
        /** @description A rule refused: `rejection` names it; a capture adds the stale `quote`, and `current` for `quote_changed`. */
        RejectedProblem: {
            /** @constant */
            status?: 422;
            /** @constant */
            title?: "Promo code rejected";
            /** @constant */
            type?: "/problems/rejected";
        };
        /**
         * @description Why a rule refused (the core's `Rejection::code`), checked in this order; `quote_changed` only on a capture pinned to a quote. `budget_exhausted` (nothing left of the budget, or less than the discount when it refuses a short budget) is checked after the basket's currency and lines, before the minimum. `not_combinable` (after `below_minimum`) refuses a code in a basket with several codes when it and a code listed before it do not both list each other's class in `combines_with`. `not_first_order` refuses a first-order code for a customer whose `customer_orders` is above 0; `not_enough_items` (after `no_eligible_items`) a buy X get Y short of one application or a tiered code by quantity below its first tier, its detail saying what is missing.
         * @enum {string}
         */
        RejectionCode: "inactive" | "customer_required" | "not_assigned" | "not_started" | "expired" | "exhausted" | "customer_limit_reached" | "not_first_order" | "currency_mismatch" | "no_eligible_items" | "not_enough_items" | "budget_exhausted" | "below_minimum" | "not_combinable" | "quote_changed";
        /** @description The body of `POST /v1/releases`: the hold or capture to give back, by its idempotency key. */
        ReleaseRequest: {
            /** @description Give back the automatic promotions with a use under the key too (beside `code` or `codes`, or alone). */
            automatic?: boolean;
            code: components["schemas"]["CodeInput"];
            codes?: never;
            key: components["schemas"]["IdempotencyKey"];
            /** @description Why, for the record: at most 200 characters, no control characters. */
            reason?: string;
        } | {
            /** @description Give back the automatic promotions with a use under the key too (beside `code` or `codes`, or alone). */
            automatic?: boolean;
            code?: never;
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes: components["schemas"]["CodeInput"][];
            key: components["schemas"]["IdempotencyKey"];
            /** @description Why, for the record: at most 200 characters, no control characters. */
            reason?: string;
        } | {
            /** @description Give back the automatic promotions with a use under the key too (beside `code` or `codes`, or alone). */
            automatic: boolean;
            code?: components["schemas"]["CodeInput"];
            /** @description Several codes, in place of `code`: 1 to 5, each once (after normalising). All or none: every code is held, captured or released under the request's key, or none is. */
            codes?: components["schemas"]["CodeInput"][];
            key: components["schemas"]["IdempotencyKey"];
            /** @description Why, for the record: at most 200 characters, no control characters. */
            reason?: string;
        };
        /** @description A use given back. */
        Released: {
            key: components["schemas"]["IdempotencyKey"];
            reason: string | null;
            released_at: components["schemas"]["Timestamp"];
            /** @description True when it had been released before: nothing changed. */
            replayed: boolean;
            /** @constant */
            state: "released";
            usage: components["schemas"]["UsageCounts"];
            /** @description `held` (a checkout abandoned) or `captured` (an order cancelled or refunded); `null` for a full refund that came before anything was held or captured under its PaymentIntent (recorded so that the payment's later success captures nothing). */
            was: ("held" | "captured") | null;
        };
        /**
         * @description Where a use is: `held` (until `expires_at`), `captured`, `released`, or `expired` (a hold whose time passed).
         * @enum {string}
         */
        ReservationState: "held" | "captured" | "released" | "expired";
        /** @description An automatic promotion that did not join: the first rule that kept it out (`not_combinable` when it does not combine with a code taken before it, or would leave one refused), and a sentence for the buyer. */
        Skipped: {
            code: components["schemas"]["Code"];
            detail: string;
            rejection: components["schemas"]["RejectionCode"];
        };
        /** @description A product's stock-keeping unit: 1 to 64 visible ASCII characters, case-sensitive. */
        Sku: string;
        /** @description A stack's hold (`POST /v1/holds` with `codes`, and `/demo/hold`): one hold per code, each as a single code's answer (its quote is its part, priced on the basket the codes before it left), in the order the codes apply. 201 when any was new, 200 when every one replayed. */
        StackHolds: {
            /** @description Each code's own hold (a code whose use the key had replays it). */
            holds: components["schemas"]["Hold"][];
            /** @description With `"automatic": true`, the automatic promotions that did not join (see [`StackQuote::skipped`](crate::StackQuote::skipped)); left out when none. */
            skipped?: components["schemas"]["Skipped"][];
        };
        /** @description One code's part of a stack's quote: its class and what it took off the basket the codes before it left (`lines` and `shipping`: the amounts it applied to, and its own split of its discount). */
        StackPart: {
            /**
             * @description Only for an automatic promotion (not typed).
             * @constant
             */
            automatic?: true;
            /**
             * @description Only when a budget that takes a partial discount clipped it to what was left.
             * @constant
             */
            budget_clipped?: true;
            class: components["schemas"]["CodeClass"];
            code: components["schemas"]["Code"];
            /** @description With `budget_clipped`: the discount before the clip. */
            desired?: components["schemas"]["Money"];
            discount: components["schemas"]["Money"];
            lines?: components["schemas"]["QuoteLine"][];
            /** @description Something the buyer should know (e.g. why free shipping took nothing off). */
            note?: string;
            shipping?: components["schemas"]["QuoteShipping"];
        };
        /** @description A basket priced with several codes (`POST /v1/quotes` with `codes`): each code's part in the order they applied (product codes, then order codes, then shipping codes; within a class as listed), and the sums. `discount + payable == total` exactly; `lines` and `shipping` carry each line's (and the shipping's) summed discount, never above its amount. */
        StackQuote: {
            codes: components["schemas"]["StackPart"][];
            discount: components["schemas"]["Money"];
            lines?: components["schemas"]["QuoteLine"][];
            payable: components["schemas"]["Money"];
            quoted_at: components["schemas"]["Timestamp"];
            shipping?: components["schemas"]["QuoteShipping"];
            /** @description With `"automatic": true`: the automatic promotions that did not join, by priority then code; left out when none. */
            skipped?: components["schemas"]["Skipped"][];
            total: components["schemas"]["Money"];
        };
        /** @description A stack's capture (`POST /v1/captures` with `codes`, and `/demo/pay`): one receipt per code, each as a single code's answer, in the order the codes apply. */
        StackReceipts: {
            /** @description Each code's own receipt (a code whose use the key had replays it). */
            receipts: components["schemas"]["Receipt"][];
            /** @description With `"automatic": true`, the automatic promotions that did not join; left out when none. */
            skipped?: components["schemas"]["Skipped"][];
        };
        /** @description One code of a refused stack: the code, the rule that refused it, the code listed before it that it cannot combine with (`not_combinable`), and the buyer's sentence. */
        StackRefusal: {
            code: components["schemas"]["Code"];
            message: string;
            rejection: components["schemas"]["RejectionCode"];
            with?: components["schemas"]["Code"];
        };
        /** @description A stack's release (`POST /v1/releases` with `codes`, and `/demo/cancel`): one answer per code, as listed. */
        StackReleases: {
            /** @description Each code's own release. */
            releases: components["schemas"]["Released"][];
        };
        /** @description A code's live figures (or a campaign's, every code's): since it was defined, for the last hour, 24 hours and seven days (`GET …/stats`). */
        Stats: {
            /** @description When the figures were read. */
            at: components["schemas"]["Timestamp"];
            /** @description The last seven days hour by hour, oldest first: 168 entries, the last one the hour of `at` (zero figures where nothing happened). */
            by_hour: components["schemas"]["HourFigures"][];
            /** @description The last hour minute by minute, oldest first: 60 entries, the last one the minute of `at` (zero figures where nothing happened). */
            by_minute: components["schemas"]["MinuteFigures"][];
            /** @description The code, or the campaign's id. */
            code: components["schemas"]["Code"];
            /** @description When it was first defined; null for a code defined before this was kept. */
            defined_at: components["schemas"]["Timestamp"] | null;
            /** @description The last 24 hours (to the hour: an hour counts whole once its first minute is in). */
            last_day: components["schemas"]["Figures"];
            /** @description The last hour. */
            last_hour: components["schemas"]["Figures"];
            /** @description The last seven days (to the hour, as `last_day`). */
            last_week: components["schemas"]["Figures"];
            /** @description Since it was defined. */
            total: components["schemas"]["Figures"];
        };
        /** @description The Durable Object's SQLite store failed. */
        StoreUnavailableProblem: {
            /** @constant */
            status?: 503;
            /** @constant */
            title?: "Storage unavailable";
            /** @constant */
            type?: "/problems/store_unavailable";
        };
        /** @description A Stripe event, exactly as Stripe sent it: the signature covers the raw bytes. */
        StripeEvent: {
            data?: Record<string, never>;
            id: string;
            /** @constant */
            object: "event";
            type: string;
        };
        /** @description Where a tier starts, or what is missing to reach it: money (`by: subtotal`) or a count of units (`by: quantity`). */
        TierFrom: components["schemas"]["Money"] | number;
        /** @description Where a tier starts: money (`by: subtotal`) or a count of units, 1 to 1,000,000 (`by: quantity`). */
        TierFromInput: components["schemas"]["MoneyInput"] | number;
        /**
         * Format: date-time
         * @description An instant as the API writes it: RFC 3339 in UTC (`Z`), with 0, 3, 6 or 9 fractional digits.
         */
        Timestamp: string;
        /**
         * Format: date-time
         * @description An RFC 3339 time with any offset (converted to UTC), years 0000 to 9999.
         */
        TimestampInput: string;
        /** @description A public route's rate limit for this address is spent (with `Retry-After`). */
        TooManyRequestsProblem: {
            /** @constant */
            status?: 429;
            /** @constant */
            title?: "Too many requests";
            /** @constant */
            type?: "/problems/too_many_requests";
        };
        /** @description The checkout page's report about a code (`POST /v1/codes/{code}/tries`): `{}` when a buyer tried it (the page looked it up), or `{"refused": "<rejection>"}` when the page showed that refusal for it. */
        TryReport: {
            /** @description The refusal the page showed for the code, as the core's rejection code; left out for a try. */
            refused?: components["schemas"]["RejectionCode"] | null;
        };
        /** @description No or a wrong bearer token (with `WWW-Authenticate: Bearer`). */
        UnauthorizedProblem: {
            /** @constant */
            status?: 401;
            /** @constant */
            title?: "Missing or wrong bearer token";
            /** @constant */
            type?: "/problems/unauthorized";
        };
        /** @description No definition is stored for the code, or it is archived. */
        UnknownCodeProblem: {
            /** @constant */
            status?: 404;
            /** @constant */
            title?: "Unknown promo code";
            /** @constant */
            type?: "/problems/unknown_code";
        };
        /** @description No try of this event to this endpoint was ever made (its id is unknown, or the endpoint does not receive it). */
        UnknownDeliveryProblem: {
            /** @constant */
            status?: 404;
            /** @constant */
            title?: "No delivery of this event";
            /** @constant */
            type?: "/problems/unknown_delivery";
        };
        /** @description A release names a key under which nothing was ever held or captured. */
        UnknownKeyProblem: {
            /** @constant */
            status?: 404;
            /** @constant */
            title?: "Nothing recorded under this key";
            /** @constant */
            type?: "/problems/unknown_key";
        };
        /** @description No webhook endpoint of this id is defined. */
        UnknownWebhookProblem: {
            /** @constant */
            status?: 404;
            /** @constant */
            title?: "Unknown webhook endpoint";
            /** @constant */
            type?: "/problems/unknown_webhook";
        };
        /** @description The request has a body whose `Content-Type` is not JSON (`application/json` or an `application/*+json` type, parameters such as `; charset=utf-8` allowed), or a body without one: refused before it is read, and nothing is recorded (a cross-site form, whose types are `text/plain`, `application/x-www-form-urlencoded` and `multipart/form-data`, drives nothing). `detail` names the type sent. */
        UnsupportedMediaTypeProblem: {
            /** @constant */
            status?: 415;
            /** @constant */
            title?: "The body is not JSON";
            /** @constant */
            type?: "/problems/unsupported_media_type";
        };
        /** @description Redemptions counting now: by anyone (`total`) and by the customer of the request (`per_customer`, 0 without one), and the sum of their discounts (`discounted`). For a campaign's code, also `per_code`. */
        UsageCounts: {
            /** @description The sum of the discounts of the uses counting (captured and held): money in the quote's currency in every answer that has a quote (a hold, a capture, a release, a listed redemption); a decimal string where there is none (a refund recorded before any payment). */
            discounted: components["schemas"]["Money"] | string;
            /** @description For a campaign's code: the uses of the code itself (`total`, `per_customer` and `discounted` are then the campaign's, across all of its codes). */
            per_code?: number;
            per_customer: number;
            total: number;
        };
        /** @description Caps on uses (held and captured): overall and per customer, and a money budget; a missing cap is unlimited. Left out of an answer when there is none. */
        UsageLimits: {
            /** @description A money budget: the discounts of the uses counting (captured and held) add up to at most this, in the code's currency. */
            budget?: components["schemas"]["Money"];
            per_customer?: number;
            total?: number;
            /**
             * @description What a discount that does not fit what is left of the budget does: `refuse` (the default: `budget_exhausted`) or `partial` (take off what is left; the quote says `budget_clipped` and `desired`). Only with a `budget`.
             * @enum {string}
             */
            when_budget_short?: "refuse" | "partial";
        };
        /** @description Caps on uses: overall and per customer, each at least 1, and a money budget above zero; a missing cap is unlimited. */
        UsageLimitsInput: {
            /** @description A money budget: the discounts of the uses counting (captured and held) add up to at most this, in the code's currency. Above zero. */
            budget?: components["schemas"]["MoneyInput"];
            per_customer?: number;
            total?: number;
            /**
             * @description What a discount that does not fit what is left of the budget does: `refuse` (the default: `budget_exhausted`) or `partial` (take off what is left; the quote says `budget_clipped` and `desired`). Only with a `budget`.
             * @enum {string}
             */
            when_budget_short?: "refuse" | "partial";
        };
        /** @description What the Worker did with a Stripe event (always 200, `received: true`), and what a code's object answers for a payment call. Which fields are there depends on `action`; a field not given is left out. For a stack (`metadata.promo_codes`): `receipts` (captured or replayed, one per code in the order they apply), or `code` (the code whose write was refused, or found its payment refunded) with `releases` (what every other code gave back) and `rejections`; a cancel, failure or refund of a stack answers `releases`. */
        WebhookAnswer: {
            /**
             * @description What was done.
             * @enum {string}
             */
            action: "captured" | "replayed" | "released" | "refused" | "ignored";
            /** @description A stack's code whose write was refused (or found its payment refunded), which stopped the stack. */
            code?: components["schemas"]["Code"];
            /** @description Why the capture was refused, in words (`refused`). */
            detail?: string;
            /** @description One code's capture (`captured`, `replayed`). */
            receipt?: components["schemas"]["Receipt"];
            /** @description A stack's receipts, one per code, in the order the codes apply. */
            receipts?: components["schemas"]["Receipt"][];
            /**
             * @description Always `true`: the event was handled, replayed or deliberately ignored.
             * @constant
             */
            received: true;
            /** @description The rule that refused the capture (`refused`); `null` when the payment's own data was unusable (`detail` says why). */
            rejection?: components["schemas"]["RejectionCode"] | null;
            /** @description A refused stack: every code that refused, and why (empty when the metadata itself was unusable: `detail` says why). */
            rejections?: components["schemas"]["StackRefusal"][];
            /** @description One code's use given back (`released`). */
            release?: components["schemas"]["Released"];
            /** @description A stack's releases, one per code: what each code gave back under the PaymentIntent. */
            releases?: components["schemas"]["WebhookCodeRelease"][];
            /** @description True when the payment was settled before (a refund, a refused capture): this answer replays it and nothing was written. */
            replayed?: boolean;
            /** @description Why nothing (more) was done (`ignored`, or a refund recorded before any code of its payment was known). */
            why?: string;
        };
        /** @description One code of a stack given back under a PaymentIntent (`releases`): `released` (with the release), or `ignored` with why (nothing held or captured under it, or a capture a failed or cancelled payment may not release). */
        WebhookCodeRelease: {
            /**
             * @description `released`, or `ignored` (with why).
             * @enum {string}
             */
            action: "released" | "ignored";
            /** @description The code. */
            code: components["schemas"]["Code"];
            /** @description The use given back (`released`). */
            release?: components["schemas"]["Released"];
            /** @description True when the payment was refunded before: this replays that release. */
            replayed?: boolean;
            /** @description Why nothing was given back (`ignored`): nothing held or captured under the payment, a code not defined, or a capture a failed or cancelled payment may not release. */
            why?: string;
        };
        /** @description On the Stripe webhook: every compare-and-set attempt lost; a 5xx, so that Stripe delivers the event again (with `Retry-After`). */
        WebhookConflictProblem: {
            /** @constant */
            status?: 503;
            /** @constant */
            title?: "Busy, deliver the event again";
            /** @constant */
            type?: "/problems/conflict";
        };
        /** @description One webhook endpoint as the admin API shows it (never its secret). */
        WebhookEndpoint: {
            /** @description When it was first defined. */
            created_at: components["schemas"]["Timestamp"];
            /**
             * @description The operator's note, if any.
             * @default null
             */
            description: string | null;
            /**
             * @description Why it receives nothing any more (it answered 410 Gone), or null while it is enabled. A `PUT` enables it again.
             * @default null
             */
            disabled: string | null;
            /** @description The event types it receives, in the documentation's order. */
            events: components["schemas"]["EventType"][];
            /** @description Its id (the path's). */
            id: string;
            /**
             * @description Until when the secret before the last rotation signs too, or null.
             * @default null
             */
            previous_secret_until: components["schemas"]["Timestamp"] | null;
            /** @description Where the events are sent. */
            url: string;
        };
        /** @description A new webhook endpoint when there are 16 already; nothing was written. */
        WebhookLimitProblem: {
            /** @constant */
            status?: 409;
            /** @constant */
            title?: "Too many webhook endpoints";
            /** @constant */
            type?: "/problems/webhook_limit";
        };
        /** @description `GET /v1/webhooks`: every endpoint, in id order. */
        WebhookList: {
            /** @description The endpoints (at most 16). */
            webhooks: components["schemas"]["WebhookEndpoint"][];
        };
        /** @description `PUT /v1/webhooks/{id}`'s body: where to send which events. */
        WebhookRequest: {
            /** @description A note for the operator. */
            description?: string | null;
            /** @description The event types it receives (at least one). */
            events: components["schemas"]["EventType"][];
            /** @description Where the events are sent: `https://` (or `http://` for a host in `WEBHOOK_ALLOW_HTTP`). */
            url: string;
        };
        /** @description The answer that shows a signing secret, once: `PUT /v1/webhooks/{id}` creating the endpoint (201), or `POST /v1/webhooks/{id}/rotate`. */
        WebhookWithSecret: {
            /** @description When it was first defined. */
            created_at: components["schemas"]["Timestamp"];
            /**
             * @description The operator's note, if any.
             * @default null
             */
            description: string | null;
            /**
             * @description Why it receives nothing any more (it answered 410 Gone), or null while it is enabled. A `PUT` enables it again.
             * @default null
             */
            disabled: string | null;
            /** @description The event types it receives, in the documentation's order. */
            events: components["schemas"]["EventType"][];
            /** @description Its id (the path's). */
            id: string;
            /**
             * @description Until when the secret before the last rotation signs too, or null.
             * @default null
             */
            previous_secret_until: components["schemas"]["Timestamp"] | null;
            /** @description The signing secret, `whsec_` and the key in base64: shown here only. */
            secret: string;
            /** @description Where the events are sent. */
            url: string;
        };
    };
    responses: {
        /** @description The path exists, not for this method; `Allow` lists the methods it takes (the path's `x-allow`). */
        MethodNotAllowed: {
            headers: {
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No such route. */
        NoSuchRoute: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /** @description The operator's note on this change, kept in the definition's change history (`GET …/changes`): text percent-encoded as UTF-8 (JavaScript's `encodeURIComponent`; plain ASCII text is itself), trimmed, at most 500 characters once decoded. A bad escape, bytes that are not UTF-8, a control character (a line break, a tab) or a longer note is a 400 `invalid_request` naming `X-Change-Note`, and nothing is written. */
        ChangeNote: string;
        /** @description Names the redemption: 1 to 255 visible ASCII characters, trimmed of surrounding spaces and tabs. Use a fact of the payment (its PaymentIntent id), never one made at handling time. Without it: 400 `missing_idempotency_key`. */
        IdempotencyKey: string;
        /** @description Writes only if the stored definition still has one of these tags (`*`: any definition), compared strongly in the code's object in the same step as the write; otherwise 412 `precondition_failed` and nothing is written. Without it, the write is unconditional. */
        IfMatch: string;
        /** @description `*`: writes only if the code has no definition yet (a new code never replaces an existing one); otherwise 412 `precondition_failed` and nothing is written. */
        IfNoneMatch: string;
        /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
        code: string;
        /** @description The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`). */
        webhookId: string;
    };
    requestBodies: never;
    headers: {
        /** @description With an allowed origin. */
        AccessControlAllowHeaders: "content-type";
        /** @description The request's `Origin`, when it is listed in `ALLOWED_ORIGINS`. */
        AccessControlAllowOrigin: string;
        /** @description With an allowed origin. */
        AccessControlExposeHeaders: "Retry-After";
        /** @description With an allowed origin: seconds a browser may cache the preflight. */
        AccessControlMaxAge: "600";
        /** @description The methods the route takes. */
        Allow: string;
        /** @description `no-cache` on an anonymous lookup: the browser asks again each time and the Worker answers from the edge cache, which keeps the lookup for up to 5 s (`public, max-age=5`), no longer than the code's next hold runs, and purges it when the code is redefined, switched off or archived and on the first hold, capture or release after it was cached (a code on several shards: kept for up to 1 s, as its shards' writes purge nothing); `no-store` on a lookup with a token (live counts). */
        CacheControlLookup: "no-cache" | "no-store";
        /** @description The definition's strong entity tag (a hash of the stored definition, quoted): send it back as `If-Match` on `PUT` or `PATCH` so the write lands only over the definition it was read from. */
        ETag: string;
        /** @description The stored definition's tag now (absent when the code has no definition). */
        ETagCurrent: string;
        /** @description With a valid token (the live lookup): the definition's strong entity tag, for `If-Match` on `PUT` or `PATCH`. Not sent on a buyer's (cached) lookup. */
        ETagOptional: string;
        /** @description On an anonymous lookup: `hit` when answered from the edge cache, `miss` when read from the code's object. */
        PromocodesCache: "hit" | "miss";
        /** @description On holds, captures and releases: the outcome the code's object decided, as JSON (`code`, `op`, `outcome`, a `rejection` or `problem`); the Worker logs it with the request's milliseconds. */
        PromocodesOutcome: string;
        /** @description Seconds to wait before retrying. */
        RetryAfter: string;
        /** @description Every answer of a public route varies by `Origin` (CORS). */
        Vary: string;
        /** @description The scheme to authenticate with. */
        WWWAuthenticate: "Bearer";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    headPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    postDemoCancel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description At most 64 KiB. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["DemoCancelRequest"];
            };
        };
        responses: {
            /** @description Released, or a replay. With `codes`: one answer per code (`StackReleases`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Released"] | components["schemas"]["StackReleases"];
                };
            };
            /** @description Bad input: the `detail` names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived; or nothing was held or captured under the key. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (64 KiB); the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postDemoHold: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description At most 64 KiB. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["DemoHoldRequest"];
            };
        };
        responses: {
            /** @description A replay. With `codes`: one answer per code (`StackHolds`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hold"] | components["schemas"]["StackHolds"];
                };
            };
            /** @description Held. With `codes`: one answer per code (`StackHolds`). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hold"] | components["schemas"]["StackHolds"];
                };
            };
            /** @description Bad input: the `detail` names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Every compare-and-set attempt lost: retry with the same key after `Retry-After` seconds. Nothing was recorded. */
            409: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (64 KiB); the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A rule refused (`rejection`), or the key was used for another customer or basket. Nothing was recorded. With `codes`: `rejections` names every code that refused; what this request had held was given back before the answer. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postDemoPay: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description At most 64 KiB. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["DemoPayRequest"];
            };
        };
        responses: {
            /** @description A replay. With `codes`: one answer per code (`StackReceipts`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Receipt"] | components["schemas"]["StackReceipts"];
                };
            };
            /** @description Captured. With `codes`: one answer per code (`StackReceipts`). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Receipt"] | components["schemas"]["StackReceipts"];
                };
            };
            /** @description Bad input: the `detail` names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Every compare-and-set attempt lost: retry with the same key after `Retry-After` seconds. Nothing was recorded. */
            409: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (64 KiB); the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A rule refused (`rejection`, with the stale `quote`, and `current` for `quote_changed`), or the key was used for another customer or basket. Nothing was recorded. With `codes`: `rejections` names every code that refused (a changed part: `quote_changed`), without quotes; what this request had captured was given back before the answer. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postDemoQuote: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description At most 64 KiB. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuoteRequest"];
            };
        };
        responses: {
            /** @description The quote. With `codes`: the stack's quote (`StackQuote`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
                };
            };
            /** @description Bad input: the `detail` names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (64 KiB); the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A rule refused: `rejection` names it, `detail` is the buyer's sentence. Nothing is counted. With `codes`: `rejections` names every code that refused (`with`: the code a `not_combinable` one cannot combine with). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postConformance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The suite passed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conformance"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getFigureWrites: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FigureWrites"];
                };
            };
            /** @description The path's code is not a code. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headFigureWrites: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FigureWrites"];
                };
            };
            /** @description The path's code is not a code. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAutomatic: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The active automatic promotions. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["CacheControlLookup"];
                    Vary: components["headers"]["Vary"];
                    "X-Promocodes-Cache": components["headers"]["PromocodesCache"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomaticPromotions"];
                };
            };
            /** @description This address has spent the public routes' rate limit (60 requests per 10 s by default); requests with a valid token are not counted. */
            429: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    optionsAutomatic: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    /** @description With an allowed origin. */
                    "Access-Control-Allow-Methods"?: "GET, HEAD";
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    /** @description The methods a browser may use. */
                    Allow: "GET, HEAD";
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A runtime error. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headAutomatic: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The active automatic promotions. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["CacheControlLookup"];
                    Vary: components["headers"]["Vary"];
                    "X-Promocodes-Cache": components["headers"]["PromocodesCache"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomaticPromotions"];
                };
            };
            /** @description This address has spent the public routes' rate limit (60 requests per 10 s by default); requests with a valid token are not counted. */
            429: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCampaigns: {
        parameters: {
            query?: {
                /** @description Only ids starting with this (normalised like a code). At most 64 characters, as a code. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                prefix?: string;
                /** @description Only ids after this one: the previous page's `next`. At most 64 characters, as a code. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: string;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
                /** @description List archived ones too. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                archived?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of campaigns. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignList"];
                };
            };
            /** @description A bad `prefix`, `after`, `limit` or `archived`: given empty, not decoding, out of range, or a prefix or cursor longer than a code; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headListCampaigns: {
        parameters: {
            query?: {
                /** @description Only ids starting with this (normalised like a code). At most 64 characters, as a code. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                prefix?: string;
                /** @description Only ids after this one: the previous page's `next`. At most 64 characters, as a code. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: string;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
                /** @description List archived ones too. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                archived?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of campaigns. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignList"];
                };
            };
            /** @description A bad `prefix`, `after`, `limit` or `archived`: given empty, not decoding, out of range, or a prefix or cursor longer than a code; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignSummary"];
                };
            };
            /** @description The path's id is not a code. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No campaign of this id is defined. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description Writes only if the stored definition still has one of these tags (`*`: any definition), compared strongly in the code's object in the same step as the write; otherwise 412 `precondition_failed` and nothing is written. Without it, the write is unconditional. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description `*`: writes only if the code has no definition yet (a new code never replaces an existing one); otherwise 412 `precondition_failed` and nothing is written. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description The operator's note on this change, kept in the definition's change history (`GET …/changes`): text percent-encoded as UTF-8 (JavaScript's `encodeURIComponent`; plain ASCII text is itself), trimmed, at most 500 characters once decoded. A bad escape, bytes that are not UTF-8, a control character (a line break, a tab) or a longer note is a 400 `invalid_request` naming `X-Change-Note`, and nothing is written. */
                "X-Change-Note"?: components["parameters"]["ChangeNote"];
            };
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CampaignInput"];
            };
        };
        responses: {
            /** @description Replaced. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description The body or the path's id is invalid. Nothing was recorded. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `If-Match` names another campaign than the stored one (changed since it was read) or there is none, or `If-None-Match: *` finds one; nothing was written. */
            412: {
                headers: {
                    ETag: components["headers"]["ETagCurrent"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (1 MiB); the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    archiveCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description The operator's note on this change, kept in the definition's change history (`GET …/changes`): text percent-encoded as UTF-8 (JavaScript's `encodeURIComponent`; plain ASCII text is itself), trimmed, at most 500 characters once decoded. A bad escape, bytes that are not UTF-8, a control character (a line break, a tab) or a longer note is a 400 `invalid_request` naming `X-Change-Note`, and nothing is written. */
                "X-Change-Note"?: components["parameters"]["ChangeNote"];
            };
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign, archived. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignSummary"];
                };
            };
            /** @description The path's id is not a code, or a bad `X-Change-Note`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No campaign of this id is defined. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignSummary"];
                };
            };
            /** @description The path's id is not a code. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No campaign of this id is defined. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description Writes only if the stored definition still has one of these tags (`*`: any definition), compared strongly in the code's object in the same step as the write; otherwise 412 `precondition_failed` and nothing is written. Without it, the write is unconditional. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description The operator's note on this change, kept in the definition's change history (`GET …/changes`): text percent-encoded as UTF-8 (JavaScript's `encodeURIComponent`; plain ASCII text is itself), trimmed, at most 500 characters once decoded. A bad escape, bytes that are not UTF-8, a control character (a line break, a tab) or a longer note is a 400 `invalid_request` naming `X-Change-Note`, and nothing is written. */
                "X-Change-Note"?: components["parameters"]["ChangeNote"];
            };
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CodePatch"];
            };
        };
        responses: {
            /** @description The campaign, switched. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignSummary"];
                };
            };
            /** @description The body or the path's id is invalid. Nothing was recorded. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No campaign of this id is defined. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `If-Match` names another campaign than the stored one (changed since it was read), or there is none; nothing was written. */
            412: {
                headers: {
                    ETag: components["headers"]["ETagCurrent"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (16 KiB); the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCampaignChanges: {
        parameters: {
            query?: {
                /** @description Only those after this `seq`: the previous page's `next`. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: number;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the change history. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangeList"];
                };
            };
            /** @description The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headCampaignChanges: {
        parameters: {
            query?: {
                /** @description Only those after this `seq`: the previous page's `next`. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: number;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the change history. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangeList"];
                };
            };
            /** @description The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCampaignCodes: {
        parameters: {
            query?: {
                /** @description Only those after this one: the previous page's `next`. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: string;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignCodeList"];
                    "text/csv": string;
                };
            };
            /** @description The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No campaign of this id is defined. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    addCampaignCodes: {
        parameters: {
            query?: never;
            header: {
                /** @description Names the redemption: 1 to 255 visible ASCII characters, trimmed of surrounding spaces and tabs. Use a fact of the payment (its PaymentIntent id), never one made at handling time. Without it: 400 `missing_idempotency_key`. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CodesRequest"];
            };
        };
        responses: {
            /** @description The codes created (a retry with the same key answers the same). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CodesCreated"];
                };
            };
            /** @description The body, the pattern, the count or the key is invalid. Nothing was created. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No campaign of this id is defined. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A code exists already (a plain code's, or a campaign's); nothing of the call was created. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (1 MiB); the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key names another call (another body): a key names one call forever. Nothing was created. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headListCampaignCodes: {
        parameters: {
            query?: {
                /** @description Only those after this one: the previous page's `next`. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: string;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignCodeList"];
                    "text/csv": string;
                };
            };
            /** @description The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No campaign of this id is defined. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCampaignRedemptions: {
        parameters: {
            query?: {
                /** @description Only those after this one: the previous page's `next`. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: string;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignRedemptionList"];
                    "text/csv": string;
                };
            };
            /** @description The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No campaign of this id is defined. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headListCampaignRedemptions: {
        parameters: {
            query?: {
                /** @description Only those after this one: the previous page's `next`. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: string;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignRedemptionList"];
                    "text/csv": string;
                };
            };
            /** @description The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No campaign of this id is defined. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCampaignStats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The figures. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Stats"];
                };
            };
            /** @description The path's id is not a code. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No campaign of this id is defined. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headCampaignStats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The figures. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Stats"];
                };
            };
            /** @description The path's id is not a code. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No campaign of this id is defined. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The campaign's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postCapture: {
        parameters: {
            query?: never;
            header: {
                /** @description Names the redemption: 1 to 255 visible ASCII characters, trimmed of surrounding spaces and tabs. Use a fact of the payment (its PaymentIntent id), never one made at handling time. Without it: 400 `missing_idempotency_key`. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description At most 64 KiB (up to 500 lines). */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaptureRequest"];
            };
        };
        responses: {
            /** @description A replay: the key is known; nothing was written. With `codes`: one answer per code (`StackReceipts`); a stack whose codes all have a use under the key replays as a whole, whatever changed since (a code's use under the key is never priced again). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Receipt"] | components["schemas"]["StackReceipts"];
                };
            };
            /** @description Captured. With `codes`: one answer per code (`StackReceipts`). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Receipt"] | components["schemas"]["StackReceipts"];
                };
            };
            /** @description Bad input (the `detail` names the field), or no `Idempotency-Key`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Every compare-and-set attempt lost: retry with the same key after `Retry-After` seconds. Nothing was recorded. */
            409: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (64 KiB); the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A rule refused (`rejection`, with the stale `quote`, and `current` for `quote_changed`), or the key was used for another customer or basket. Nothing was recorded. With `codes`: `rejections` names every code that refused (a changed part: `quote_changed`), without quotes; what this request had captured was given back before the answer. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCodes: {
        parameters: {
            query?: {
                /** @description Only codes starting with this (normalised like a code). At most 64 characters, as a code. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                prefix?: string;
                /** @description Only codes after this one: the previous page's `next`. At most 64 characters, as a code. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: string;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
                /** @description List archived codes too. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                archived?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the catalog. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CodeList"];
                };
            };
            /** @description A bad `prefix`, `after`, `limit` or `archived`: given empty, not decoding, out of range, or a prefix or cursor longer than a code; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headCodes: {
        parameters: {
            query?: {
                /** @description Only codes starting with this (normalised like a code). At most 64 characters, as a code. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                prefix?: string;
                /** @description Only codes after this one: the previous page's `next`. At most 64 characters, as a code. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: string;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
                /** @description List archived codes too. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                archived?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the catalog. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CodeList"];
                };
            };
            /** @description A bad `prefix`, `after`, `limit` or `archived`: given empty, not decoding, out of range, or a prefix or cursor longer than a code; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The code as anyone may see it. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["CacheControlLookup"];
                    ETag: components["headers"]["ETagOptional"];
                    Vary: components["headers"]["Vary"];
                    "X-Promocodes-Cache": components["headers"]["PromocodesCache"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicCode"];
                };
            };
            /** @description The path's code is not a code (or a bad percent escape). */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This address has spent the public routes' rate limit (60 requests per 10 s by default); requests with a valid token are not counted. */
            429: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putCode: {
        parameters: {
            query?: never;
            header?: {
                /** @description Writes only if the stored definition still has one of these tags (`*`: any definition), compared strongly in the code's object in the same step as the write; otherwise 412 `precondition_failed` and nothing is written. Without it, the write is unconditional. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description `*`: writes only if the code has no definition yet (a new code never replaces an existing one); otherwise 412 `precondition_failed` and nothing is written. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /** @description The operator's note on this change, kept in the definition's change history (`GET …/changes`): text percent-encoded as UTF-8 (JavaScript's `encodeURIComponent`; plain ASCII text is itself), trimmed, at most 500 characters once decoded. A bad escape, bytes that are not UTF-8, a control character (a line break, a tab) or a longer note is a 400 `invalid_request` naming `X-Change-Note`, and nothing is written. */
                "X-Change-Note"?: components["parameters"]["ChangeNote"];
            };
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        /** @description The definition; at most 1 MiB (up to 10,000 assigned customers). */
        requestBody: {
            content: {
                "application/json": components["schemas"]["DefinitionInput"];
            };
        };
        responses: {
            /** @description Replaced (or restored): the definition as stored. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Definition"];
                };
            };
            /** @description Created: the definition as stored. */
            201: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Definition"];
                };
            };
            /** @description A bad definition (the `detail` names the field), one that defines another code than the path's, or a bad `X-Change-Note`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code is a campaign's: it is not defined alone (codes are unique across all codes and campaigns). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `If-Match` names another definition than the stored one (changed since it was read) or the code has none, or `If-None-Match: *` finds one; nothing was written. */
            412: {
                headers: {
                    ETag: components["headers"]["ETagCurrent"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (1 MiB); the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteCode: {
        parameters: {
            query?: never;
            header?: {
                /** @description The operator's note on this change, kept in the definition's change history (`GET …/changes`): text percent-encoded as UTF-8 (JavaScript's `encodeURIComponent`; plain ASCII text is itself), trimmed, at most 500 characters once decoded. A bad escape, bytes that are not UTF-8, a control character (a line break, a tab) or a longer note is a 400 `invalid_request` naming `X-Change-Note`, and nothing is written. */
                "X-Change-Note"?: components["parameters"]["ChangeNote"];
            };
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archived code. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CodeSummary"];
                };
            };
            /** @description The path's code is not a code, or is a campaign's (archived with its campaign), or a bad `X-Change-Note`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    optionsCode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    /** @description With an allowed origin. */
                    "Access-Control-Allow-Methods"?: "GET, HEAD";
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    /** @description The methods a browser may use. */
                    Allow: "GET, HEAD";
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A runtime error. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headCode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The code as anyone may see it. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Cache-Control": components["headers"]["CacheControlLookup"];
                    ETag: components["headers"]["ETagOptional"];
                    Vary: components["headers"]["Vary"];
                    "X-Promocodes-Cache": components["headers"]["PromocodesCache"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicCode"];
                };
            };
            /** @description The path's code is not a code (or a bad percent escape). */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This address has spent the public routes' rate limit (60 requests per 10 s by default); requests with a valid token are not counted. */
            429: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchCode: {
        parameters: {
            query?: never;
            header?: {
                /** @description Writes only if the stored definition still has one of these tags (`*`: any definition), compared strongly in the code's object in the same step as the write; otherwise 412 `precondition_failed` and nothing is written. Without it, the write is unconditional. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description The operator's note on this change, kept in the definition's change history (`GET …/changes`): text percent-encoded as UTF-8 (JavaScript's `encodeURIComponent`; plain ASCII text is itself), trimmed, at most 500 characters once decoded. A bad escape, bytes that are not UTF-8, a control character (a line break, a tab) or a longer note is a 400 `invalid_request` naming `X-Change-Note`, and nothing is written. */
                "X-Change-Note"?: components["parameters"]["ChangeNote"];
            };
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        /** @description At most 16 KiB. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CodePatch"];
            };
        };
        responses: {
            /** @description The definition as stored. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Definition"];
                };
            };
            /** @description Bad input (the `detail` names the field), a campaign's code (switched with its campaign), or a bad `X-Change-Note`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `If-Match` names another definition than the stored one (changed since it was read), or the code has none; nothing was written. */
            412: {
                headers: {
                    ETag: components["headers"]["ETagCurrent"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (16 KiB); the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCodeChanges: {
        parameters: {
            query?: {
                /** @description Only those after this `seq`: the previous page's `next`. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: number;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the change history. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangeList"];
                };
            };
            /** @description The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headCodeChanges: {
        parameters: {
            query?: {
                /** @description Only those after this `seq`: the previous page's `next`. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: number;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the change history. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangeList"];
                };
            };
            /** @description The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getRedemptions: {
        parameters: {
            query?: {
                /** @description Only those after this one: the previous page's `next`, a `seq` (for a sharded code, one position for its object and each shard, joined by `~`). Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: string;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the history. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RedemptionList"];
                    "text/csv": string;
                };
            };
            /** @description The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headRedemptions: {
        parameters: {
            query?: {
                /** @description Only those after this one: the previous page's `next`, a `seq` (for a sharded code, one position for its object and each shard, joined by `~`). Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                after?: string;
                /** @description Page size, 1 to 1000. Given empty, or with an escape that does not decode to UTF-8, it is a 400 naming it. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the history. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RedemptionList"];
                    "text/csv": string;
                };
            };
            /** @description The path's code is not a code, or a bad `after` or `limit`: given empty, not decoding, out of range; `detail` names the parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getStats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The figures. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Stats"];
                };
            };
            /** @description The path's code is not a code. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headStats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The figures. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Stats"];
                };
            };
            /** @description The path's code is not a code. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postTries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        /** @description At most 16 KiB. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["TryReport"];
            };
        };
        responses: {
            /** @description Counted. */
            204: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The path's code is not a code, or the body is not a report (an unknown rejection, another field). */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (16 KiB); the rest is not read. */
            413: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`); nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This address has spent the public routes' rate limit (60 requests per 10 s by default); requests with a valid token are not counted. */
            429: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    optionsTries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400. */
                code: components["parameters"]["code"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    /** @description With an allowed origin. */
                    "Access-Control-Allow-Methods"?: "POST";
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    /** @description The methods a browser may use. */
                    Allow: "POST";
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A runtime error. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postHold: {
        parameters: {
            query?: never;
            header: {
                /** @description Names the redemption: 1 to 255 visible ASCII characters, trimmed of surrounding spaces and tabs. Use a fact of the payment (its PaymentIntent id), never one made at handling time. Without it: 400 `missing_idempotency_key`. */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description At most 64 KiB (up to 500 lines). */
        requestBody: {
            content: {
                "application/json": components["schemas"]["HoldRequest"];
            };
        };
        responses: {
            /** @description A replay: the key is known; nothing was written. With `codes`: one answer per code (`StackHolds`); a stack whose codes all have a use under the key replays as a whole, whatever changed since (a code's use under the key is never priced again). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hold"] | components["schemas"]["StackHolds"];
                };
            };
            /** @description Held. With `codes`: one answer per code (`StackHolds`). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hold"] | components["schemas"]["StackHolds"];
                };
            };
            /** @description Bad input (the `detail` names the field), or no `Idempotency-Key`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Every compare-and-set attempt lost: retry with the same key after `Retry-After` seconds. Nothing was recorded. */
            409: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (64 KiB); the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A rule refused (`rejection`), or the key was used for another customer or basket. Nothing was recorded. With `codes`: `rejections` names every code that refused; what this request had held was given back before the answer. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 description. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        openapi: "3.1.0";
                    };
                };
            };
            /** @description A runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 description. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        openapi: "3.1.0";
                    };
                };
            };
            /** @description A runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postQuote: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description At most 64 KiB (up to 500 lines). */
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuoteRequest"];
            };
        };
        responses: {
            /** @description The quote: a `Quote` for one code, a `StackQuote` for `codes`. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quote"] | components["schemas"]["StackQuote"];
                };
            };
            /** @description Bad input: the `detail` names the field. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A `customer` without a server's token (the answer reveals nothing about the code or the customer). */
            401: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived. */
            404: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (64 KiB); the rest is not read. */
            413: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A rule refused: `rejection` names it, `detail` is the buyer's sentence. Nothing is counted. */
            422: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This address has spent the public routes' rate limit (60 requests per 10 s by default); requests with a valid token are not counted. */
            429: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    optionsQuotes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    /** @description With an allowed origin. */
                    "Access-Control-Allow-Methods"?: "POST";
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    /** @description The methods a browser may use. */
                    Allow: "POST";
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A runtime error. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postRelease: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description At most 16 KiB. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReleaseRequest"];
            };
        };
        responses: {
            /** @description Released, or a replay of an earlier release. With `codes`: one answer per code (`StackReleases`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Released"] | components["schemas"]["StackReleases"];
                };
            };
            /** @description Bad input: the `detail` names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No definition is stored for the code, or it is archived; or nothing was held or captured under the key. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (16 KiB); the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The code's SQLite store failed. Nothing was recorded. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoints. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoints. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postStripeWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=...]`; a timestamp more than 300 s from now is refused. */
                "Stripe-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event exactly as Stripe sent it (signed byte for byte). */
        requestBody: {
            content: {
                "application/json": components["schemas"]["StripeEvent"];
            };
        };
        responses: {
            /** @description The event was handled, replayed or deliberately ignored; Stripe stops delivering it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookAnswer"];
                };
            };
            /** @description The signature does not verify the body (or is missing or too far from now), or a verified body is not an event promocodes can read. Nothing happened. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & (components["schemas"]["InvalidSignatureProblem"] | components["schemas"]["InvalidEventProblem"]);
                };
            };
            /** @description The body is over 64 KiB; the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & components["schemas"]["PayloadTooLargeProblem"];
                };
            };
            /** @description `STRIPE_WEBHOOK_SECRET` is not configured, or a runtime error: Stripe delivers again. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & (components["schemas"]["MisconfiguredProblem"] | components["schemas"]["InternalProblem"]);
                };
            };
            /** @description A conflict (every attempt lost) or a store failure: Stripe delivers again. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & (components["schemas"]["WebhookConflictProblem"] | components["schemas"]["StoreUnavailableProblem"]);
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`). */
                id: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint, without its secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The path's id is not an endpoint's. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No endpoint of this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`). */
                id: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        /** @description At most 16 KiB. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookRequest"];
            };
        };
        responses: {
            /** @description Replaced. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Created, with its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description Bad input: the `detail` names the field (`id`, `url`, `events`, `description`). Nothing was written. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description There are 16 endpoints already. Nothing was written. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over the route's limit (16 KiB); the rest is not read. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body's `Content-Type` is not JSON (`application/json` or `application/*+json`), or a body has none; nothing was read or recorded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`). */
                id: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The path's id is not an endpoint's. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No endpoint of this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`). */
                id: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint, without its secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The path's id is not an endpoint's. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No endpoint of this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Only deliveries after this cursor: the previous page's `next`. */
                after?: string;
                /** @description Page size, 1 to 1000. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`). */
                id: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryList"];
                };
            };
            /** @description A bad `after` or `limit`, or the path's id is not an endpoint's. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No endpoint of this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Only deliveries after this cursor: the previous page's `next`. */
                after?: string;
                /** @description Page size, 1 to 1000. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`). */
                id: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryList"];
                };
            };
            /** @description A bad `after` or `limit`, or the path's id is not an endpoint's. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No endpoint of this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`). */
                id: components["parameters"]["webhookId"];
                /** @description The event's id: its `webhook-id` (`evt_<code>_<n>`). */
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery after this try. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryRecord"];
                };
            };
            /** @description The path's id is not an endpoint's. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No endpoint of this id, or no try of this event to it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The object that keeps the event failed to read it. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rotateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`). */
                id: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint with its new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description The path's id is not an endpoint's. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No or a wrong bearer token. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No endpoint of this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A secret or binding the route needs is missing, or a runtime error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
