// Generated from docs/openapi.json by `npm run generate` (scripts/generate.mjs). Do not edit.

/** The API's shapes the module reads and writes (docs/openapi.json's component schemas). */
export interface ApiShapes {
    schemas: {
        /** @description The lines a code applies to: skus and categories (up to 1000 of each; not both empty). */
        AppliesToInput: {
            categories?: ApiShapes["schemas"]["Category"][];
            skus?: ApiShapes["schemas"]["Sku"][];
        };
        /** @description What is being bought: either `{total}`, or `{lines, shipping?}`. */
        Basket: {
            /** @description A basket known only by its total (shipping, if any, inside it). */
            total: ApiShapes["schemas"]["MoneyInput"];
            lines?: never;
            shipping?: never;
        } | {
            /** @description Every amount in one currency. */
            lines: ApiShapes["schemas"]["Line"][];
            /** @description With `lines` only. */
            shipping?: ApiShapes["schemas"]["MoneyInput"];
            total?: never;
        };
        /** @description A product category: 1 to 64 visible ASCII characters, case-sensitive. */
        Category: string;
        /** @description A normalised promo code: 1 to 64 of `A-Z 0-9 _ -`. */
        Code: string;
        /**
         * @description What a code discounts, from its definition: `shipping` for a free-shipping discount, `product` when it has `applies_to`, `order` otherwise. In a basket with several codes, product codes apply first (each to its eligible lines after the product codes before it), then order codes (each to the subtotal after every discount before it), then shipping codes; within a class, in the order listed.
         * @enum {string}
         */
        CodeClass: "product" | "order" | "shipping";
        /** @description A promo code as typed: trimmed and upper-cased by the API, then 1 to 64 of `A-Z 0-9 _ -`. */
        CodeInput: string;
        /**
         * @description An ISO 4217 code the core knows (src/values/iso4217.rs: active currencies with minor units), upper case.
         * @enum {string}
         */
        Currency: "AED" | "AFN" | "ALL" | "AMD" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BOV" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHE" | "CHF" | "CHW" | "CLF" | "CLP" | "CNY" | "COP" | "COU" | "CRC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MXV" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "USN" | "UYI" | "UYU" | "UYW" | "UZS" | "VED" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XCD" | "XCG" | "XOF" | "XPF" | "YER" | "ZAR" | "ZMW" | "ZWG";
        /** @description Who is buying, as given: trimmed by the API, then 1 to 256 characters, no control characters. */
        CustomerIdInput: string;
        /** @description The body of `PUT /v1/codes/{code}`: the core's definition. Only `code` and `discount` are required; `active` defaults to true, no `applies_to` means every line, no `audience` means public, no `combines_with` means the code shares a basket with no other code. Unknown fields are refused; the window must end after it starts, and every amount must be in one currency. */
        DefinitionInput: {
            /** @default true */
            active?: boolean;
            applies_to?: ApiShapes["schemas"]["AppliesToInput"];
            audience?: ApiShapes["schemas"]["CustomerIdInput"][];
            /**
             * @description An automatic promotion: it joins a basket without being typed (requests with `"automatic": true`).
             * @default false
             */
            automatic?: boolean;
            code: ApiShapes["schemas"]["CodeInput"];
            /** @description The classes of code this code may share a basket with; default none. Two codes combine only when each lists the other's class. */
            combines_with?: ApiShapes["schemas"]["CodeClass"][];
            discount: ApiShapes["schemas"]["DiscountInput"];
            ends_at?: ApiShapes["schemas"]["TimestampInput"];
            /**
             * @description A first-order code: quotes, holds and captures need `customer` and `customer_orders`, and `customer_orders` above 0 is refused with `not_first_order`; `limits.per_customer` defaults to 1.
             * @default false
             */
            first_order?: boolean;
            limits?: ApiShapes["schemas"]["UsageLimitsInput"];
            minimum?: ApiShapes["schemas"]["MoneyInput"];
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
            starts_at?: ApiShapes["schemas"]["TimestampInput"];
        };
        /** @description What the code takes off: a percent of the eligible subtotal (at most `max`), a fixed amount (at most `max`), or the shipping (at most `max`). Buy X get Y: for each `buy` (units, or money spent on units not given), `get.quantity` units at `get.percent` or `get.amount` off each, at most `max_applications` times, the cheapest (or most expensive) units given; class `product`. Tiered: the highest tier the eligible subtotal (`by: subtotal`) or units (`by: quantity`) reach applies its percent or fixed discount. */
        DiscountInput: {
            /** @enum {string} */
            kind: "percent" | "fixed" | "free_shipping" | "buy_x_get_y" | "tiered";
        } & ({
            /** @constant */
            kind: "percent";
            max?: ApiShapes["schemas"]["MoneyInput"];
            /** @description A decimal string above 0 and at most 100, at most 4 decimal places. */
            percent: string;
        } | {
            amount: ApiShapes["schemas"]["MoneyInput"];
            /** @constant */
            kind: "fixed";
            max?: ApiShapes["schemas"]["MoneyInput"];
        } | {
            /** @constant */
            kind: "free_shipping";
            max?: ApiShapes["schemas"]["MoneyInput"];
        } | {
            /** @description What each application needs bought: `quantity` units or an `amount` spent, on `applies_to` (every line when left out). */
            buy: {
                amount?: ApiShapes["schemas"]["MoneyInput"];
                applies_to?: ApiShapes["schemas"]["AppliesToInput"];
                quantity?: number;
            };
            /** @description What each application gives: `quantity` units of `applies_to` (the buy's when left out) at `percent` (100 is free) or `amount` off each unit (never above its price). */
            get: {
                amount?: ApiShapes["schemas"]["MoneyInput"];
                applies_to?: ApiShapes["schemas"]["AppliesToInput"];
                /** @description A decimal string above 0 and at most 100, at most 4 decimal places. */
                percent?: string;
                quantity: number;
            };
            /** @constant */
            kind: "buy_x_get_y";
            max?: ApiShapes["schemas"]["MoneyInput"];
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
                discount: ApiShapes["schemas"]["DiscountInput"];
                from: ApiShapes["schemas"]["TierFromInput"];
            }[];
        });
        /** @description A use reserved for the buyer until `expires_at`. A replay answers with the reservation as it stands now. */
        Hold: {
            expires_at: ApiShapes["schemas"]["Timestamp"];
            key: ApiShapes["schemas"]["IdempotencyKey"];
            quote: ApiShapes["schemas"]["Quote"];
            /** @description True when a known key answered: nothing was written. */
            replayed: boolean;
            state: ApiShapes["schemas"]["ReservationState"];
            usage: ApiShapes["schemas"]["UsageCounts"];
        };
        /** @description 1 to 255 visible ASCII characters (`!` to `~`), compared exactly. */
        IdempotencyKey: string;
        /** @description One line of a basket. */
        Line: {
            categories?: ApiShapes["schemas"]["Category"][];
            quantity: number;
            sku: ApiShapes["schemas"]["Sku"];
            unit_price: ApiShapes["schemas"]["MoneyInput"];
        };
        /** @description An amount as the API writes it: a decimal string with exactly the currency's minor-unit places (`"8.00"`, JPY `"1000"`), never a number. */
        Money: {
            amount: string;
            currency: ApiShapes["schemas"]["Currency"];
        };
        /** @description An amount as a request gives it: a non-negative decimal string (`"80"`, `"80.00"`), at most the currency's places, at most 10^15; never a number. */
        MoneyInput: {
            amount: string;
            currency: ApiShapes["schemas"]["Currency"];
        };
        /** @description A priced basket: `discount + payable == total`, exactly. A basket with lines also has each line's part of the discount, and the shipping's. */
        Quote: {
            /**
             * @description Only when a budget that takes a partial discount clipped it to what was left.
             * @constant
             */
            budget_clipped?: true;
            code: ApiShapes["schemas"]["Code"];
            /** @description With `budget_clipped`: the discount before the clip. */
            desired?: ApiShapes["schemas"]["Money"];
            discount: ApiShapes["schemas"]["Money"];
            lines?: ApiShapes["schemas"]["QuoteLine"][];
            /** @description A tiered code below its top tier: the next tier and what is missing. */
            next_tier?: ApiShapes["schemas"]["QuoteNextTier"];
            /** @description Something the buyer should know (e.g. why free shipping took nothing off). */
            note?: string;
            payable: ApiShapes["schemas"]["Money"];
            quoted_at: ApiShapes["schemas"]["Timestamp"];
            shipping?: ApiShapes["schemas"]["QuoteShipping"];
            /** @description A tiered code's tier reached. */
            tier?: ApiShapes["schemas"]["QuoteTier"];
            total: ApiShapes["schemas"]["Money"];
        };
        QuoteLine: {
            amount: ApiShapes["schemas"]["Money"];
            discount: ApiShapes["schemas"]["Money"];
            sku: ApiShapes["schemas"]["Sku"];
        };
        /** @description The tier above the one reached (or the first): where it starts and the money or units still missing ("spend EUR 20.00 more for 15% off"). */
        QuoteNextTier: {
            from: ApiShapes["schemas"]["TierFrom"];
            index: number;
            missing: ApiShapes["schemas"]["TierFrom"];
        };
        QuoteShipping: {
            amount: ApiShapes["schemas"]["Money"];
            discount: ApiShapes["schemas"]["Money"];
        };
        /** @description The tier of a tiered code the quote reached: its position (from 0) and where it starts. */
        QuoteTier: {
            from: ApiShapes["schemas"]["TierFrom"];
            index: number;
        };
        /**
         * @description Why a rule refused (the core's `Rejection::code`), checked in this order; `quote_changed` only on a capture pinned to a quote. `budget_exhausted` (nothing left of the budget, or less than the discount when it refuses a short budget) is checked after the basket's currency and lines, before the minimum. `not_combinable` (after `below_minimum`) refuses a code in a basket with several codes when it and a code listed before it do not both list each other's class in `combines_with`. `not_first_order` refuses a first-order code for a customer whose `customer_orders` is above 0; `not_enough_items` (after `no_eligible_items`) a buy X get Y short of one application or a tiered code by quantity below its first tier, its detail saying what is missing.
         * @enum {string}
         */
        RejectionCode: "inactive" | "customer_required" | "not_assigned" | "not_started" | "expired" | "exhausted" | "customer_limit_reached" | "not_first_order" | "currency_mismatch" | "no_eligible_items" | "not_enough_items" | "budget_exhausted" | "below_minimum" | "not_combinable" | "quote_changed";
        /**
         * @description Where a use is: `held` (until `expires_at`), `captured`, `released`, or `expired` (a hold whose time passed).
         * @enum {string}
         */
        ReservationState: "held" | "captured" | "released" | "expired";
        /** @description An automatic promotion that did not join: the first rule that kept it out (`not_combinable` when it does not combine with a code taken before it, or would leave one refused), and a sentence for the buyer. */
        Skipped: {
            code: ApiShapes["schemas"]["Code"];
            detail: string;
            rejection: ApiShapes["schemas"]["RejectionCode"];
        };
        /** @description A product's stock-keeping unit: 1 to 64 visible ASCII characters, case-sensitive. */
        Sku: string;
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
            class: ApiShapes["schemas"]["CodeClass"];
            code: ApiShapes["schemas"]["Code"];
            /** @description With `budget_clipped`: the discount before the clip. */
            desired?: ApiShapes["schemas"]["Money"];
            discount: ApiShapes["schemas"]["Money"];
            lines?: ApiShapes["schemas"]["QuoteLine"][];
            /** @description Something the buyer should know (e.g. why free shipping took nothing off). */
            note?: string;
            shipping?: ApiShapes["schemas"]["QuoteShipping"];
        };
        /** @description A basket priced with several codes (`POST /v1/quotes` with `codes`): each code's part in the order they applied (product codes, then order codes, then shipping codes; within a class as listed), and the sums. `discount + payable == total` exactly; `lines` and `shipping` carry each line's (and the shipping's) summed discount, never above its amount. */
        StackQuote: {
            codes: ApiShapes["schemas"]["StackPart"][];
            discount: ApiShapes["schemas"]["Money"];
            lines?: ApiShapes["schemas"]["QuoteLine"][];
            payable: ApiShapes["schemas"]["Money"];
            quoted_at: ApiShapes["schemas"]["Timestamp"];
            shipping?: ApiShapes["schemas"]["QuoteShipping"];
            /** @description With `"automatic": true`: the automatic promotions that did not join, by priority then code; left out when none. */
            skipped?: ApiShapes["schemas"]["Skipped"][];
            total: ApiShapes["schemas"]["Money"];
        };
        /** @description One code of a refused stack: the code, the rule that refused it, the code listed before it that it cannot combine with (`not_combinable`), and the buyer's sentence. */
        StackRefusal: {
            code: ApiShapes["schemas"]["Code"];
            message: string;
            rejection: ApiShapes["schemas"]["RejectionCode"];
            with?: ApiShapes["schemas"]["Code"];
        };
        /** @description Where a tier starts, or what is missing to reach it: money (`by: subtotal`) or a count of units (`by: quantity`). */
        TierFrom: ApiShapes["schemas"]["Money"] | number;
        /** @description Where a tier starts: money (`by: subtotal`) or a count of units, 1 to 1,000,000 (`by: quantity`). */
        TierFromInput: ApiShapes["schemas"]["MoneyInput"] | number;
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
        /** @description Redemptions counting now: by anyone (`total`) and by the customer of the request (`per_customer`, 0 without one), and the sum of their discounts (`discounted`). For a campaign's code, also `per_code`. */
        UsageCounts: {
            /** @description The sum of the discounts of the uses counting (captured and held): money in the quote's currency in every answer that has a quote (a hold, a capture, a release, a listed redemption); a decimal string where there is none (a refund recorded before any payment). */
            discounted: ApiShapes["schemas"]["Money"] | string;
            /** @description For a campaign's code: the uses of the code itself (`total`, `per_customer` and `discounted` are then the campaign's, across all of its codes). */
            per_code?: number;
            per_customer: number;
            total: number;
        };
        /** @description Caps on uses: overall and per customer, each at least 1, and a money budget above zero; a missing cap is unlimited. */
        UsageLimitsInput: {
            /** @description A money budget: the discounts of the uses counting (captured and held) add up to at most this, in the code's currency. Above zero. */
            budget?: ApiShapes["schemas"]["MoneyInput"];
            per_customer?: number;
            total?: number;
            /**
             * @description What a discount that does not fit what is left of the budget does: `refuse` (the default: `budget_exhausted`) or `partial` (take off what is left; the quote says `budget_clipped` and `desired`). Only with a `budget`.
             * @enum {string}
             */
            when_budget_short?: "refuse" | "partial";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}

/** An active ISO 4217 currency code: "EUR", "JPY", "KWD". */
export type CurrencyCode = ApiShapes["schemas"]["Currency"];
/** An amount in a currency: a decimal string, never a float. */
export type Money = ApiShapes["schemas"]["Money"];
/** A promo code's definition, as the module reads it (and `PUT /v1/codes/{code}` takes it). */
export type Definition = ApiShapes["schemas"]["DefinitionInput"];
/** What a code takes off. */
export type Discount = ApiShapes["schemas"]["DiscountInput"];
/** Caps on redemptions and on the money given away. */
export type UsageLimits = ApiShapes["schemas"]["UsageLimitsInput"];
/** The lines a code applies to. */
export type AppliesTo = ApiShapes["schemas"]["AppliesToInput"];
/** What a code discounts, and when it applies in a stack. */
export type CodeClass = ApiShapes["schemas"]["CodeClass"];
/** One line of a basket. */
export type Line = ApiShapes["schemas"]["Line"];
/** The basket being priced: one total, or lines and optional shipping, all in one currency. */
export type Basket = ApiShapes["schemas"]["Basket"];
/** How often the code has been redeemed, as the API answers it. */
export type UsageCounts = ApiShapes["schemas"]["UsageCounts"];
/** A priced basket (one code). */
export type Quote = ApiShapes["schemas"]["Quote"];
/** A line of a quote: its amount and its part of the discount. */
export type QuoteLine = ApiShapes["schemas"]["QuoteLine"];
/** The shipping of a quote: its amount and its part of the discount. */
export type QuoteShipping = ApiShapes["schemas"]["QuoteShipping"];
/** A basket priced with several codes. */
export type StackQuote = ApiShapes["schemas"]["StackQuote"];
/** One code's part of a stack's quote. */
export type StackPart = ApiShapes["schemas"]["StackPart"];
/** One code of a stack that refused. */
export type StackRefusal = ApiShapes["schemas"]["StackRefusal"];
/** An automatic promotion that did not join a stack, and why. */
export type Skipped = ApiShapes["schemas"]["Skipped"];
/** Where a tier starts, or what is missing to reach it: money, or a count of units. */
export type TierFrom = ApiShapes["schemas"]["TierFrom"];
/** Why a code does not apply, in the order the rules are checked. */
export type RejectionCode = ApiShapes["schemas"]["RejectionCode"];
/** Where a held or captured use is in its life. */
export type ReservationState = ApiShapes["schemas"]["ReservationState"];
/** A use held for the buyer while they pay (what `POST /v1/holds` answers). */
export type Hold = ApiShapes["schemas"]["Hold"];
