//! The core's shapes: money, identifiers, baskets, usage, options and
//! definitions, read into the wire's types and finished by the core.

use super::*;

impl<'a> Json<'a> {
    // --- the core's types ---

    pub(super) fn currency(&mut self) -> Read<Currency> {
        self.parsed(Currency::EXPECTING, Currency::from_code)
    }

    pub(super) fn decimal_text(&mut self) -> Read<DecimalText> {
        self.str_value(DecimalText::EXPECTING).map(DecimalText)
    }

    pub(super) fn money(&mut self) -> Read<Money> {
        const SHAPE: Shape = Shape {
            expecting: "struct MoneyRepr",
            names: &["amount", "currency"],
            defaults: 0,
        };
        #[derive(Default)]
        struct S(Option<DecimalText>, Option<Currency>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = Some(json.decimal_text()?),
                    _ => self.1 = Some(json.currency()?),
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            let repr = MoneyRepr {
                amount: required(s.0)?,
                currency: required(s.1)?,
            };
            Ok(repr.finish())
        })
    }

    pub(super) fn timestamp(&mut self) -> Read<Timestamp> {
        self.parsed(Timestamp::EXPECTING, Timestamp::parse)
    }

    pub(super) fn code(&mut self) -> Read<Code> {
        self.parsed(Code::EXPECTING, Code::parse)
    }

    pub(super) fn customer(&mut self) -> Read<CustomerId> {
        self.parsed(CustomerId::EXPECTING, CustomerId::parse)
    }

    pub(super) fn sku(&mut self) -> Read<Sku> {
        self.parsed(Sku::EXPECTING, Sku::parse)
    }

    pub(super) fn category(&mut self) -> Read<Category> {
        self.parsed(Category::EXPECTING, Category::parse)
    }

    pub(super) fn quantity(&mut self) -> Read<Quantity> {
        let expecting = QuantityExpecting.to_string();
        let quantity = match self.number_value(&expecting)? {
            Number::Unsigned(n) => Quantity::from_u64(n),
            Number::Signed(n) => Quantity::from_i64(n),
            float => return Err(message(format!("invalid type: {float}, expected {expecting}"))),
        };
        quantity.map_err(|err| refused(Refused::at("", err)))
    }

    pub(super) fn categories(&mut self) -> Read<Categories> {
        let categories = self.list(Json::category)?;
        Categories::finish(categories).map_err(refused)
    }

    pub(super) fn line(&mut self) -> Read<LineRepr> {
        const SHAPE: Shape = Shape {
            expecting: "struct LineRepr",
            names: &["sku", "quantity", "unit_price", "categories"],
            defaults: 0b1000,
        };
        #[derive(Default)]
        struct S(Option<Sku>, Option<Quantity>, Option<Money>, Option<Categories>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = Some(json.sku()?),
                    1 => self.1 = Some(json.quantity()?),
                    2 => self.2 = Some(json.money()?),
                    _ => self.3 = json.option(Json::categories)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            Ok(Ok(LineRepr {
                sku: required(s.0)?,
                quantity: required(s.1)?,
                unit_price: required(s.2)?,
                categories: s.3,
            }))
        })
    }

    pub(super) fn basket(&mut self) -> Read<Basket> {
        const SHAPE: Shape = Shape {
            expecting: "struct BasketRepr",
            names: &["total", "lines", "shipping"],
            defaults: 0b111,
        };
        #[derive(Default)]
        struct S(Option<Money>, Option<Vec<LineRepr>>, Option<Money>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = json.option(Json::money)?,
                    1 => self.1 = json.option(|json| json.list(Json::line))?,
                    _ => self.2 = json.option(Json::money)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            Ok(BasketRepr {
                total: s.0,
                lines: s.1,
                shipping: s.2,
            }
            .finish())
        })
    }

    pub(super) fn usage(&mut self) -> Read<UsageCounts> {
        const SHAPE: Shape = Shape {
            expecting: "struct UsageRepr",
            names: &["total", "per_customer", "discounted", "per_code"],
            defaults: 0b1100,
        };
        #[derive(Default)]
        struct S(Option<u64>, Option<u64>, Option<Discounted>, Option<u64>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = Some(json.unsigned()?),
                    1 => self.1 = Some(json.unsigned()?),
                    2 => self.2 = json.option(Json::discounted)?,
                    _ => self.3 = json.option(Json::unsigned)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            let repr = UsageRepr {
                total: required(s.0)?,
                per_customer: required(s.1)?,
                discounted: s.2,
                per_code: s.3,
            };
            Ok(repr.finish())
        })
    }

    /// A usage's `discounted`: a decimal string or a money object.
    pub(super) fn discounted(&mut self) -> Read<Discounted> {
        match self.value_start()? {
            b'"' => self.decimal_text().map(Discounted::Text),
            b'{' => self.money().map(Discounted::Money),
            _ => Err(self.invalid_type(Discounted::EXPECTING)),
        }
    }

    pub(super) fn options(&mut self) -> Read<QuoteOptions> {
        const SHAPE: Shape = Shape {
            expecting: "struct QuoteOptions",
            names: &["customer", "usage", "now", "customer_orders"],
            defaults: 0b1111,
        };
        #[derive(Default)]
        struct S(QuoteOptions);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0.customer = json.option(Json::customer)?,
                    1 => self.0.usage = json.option(Json::usage)?,
                    2 => self.0.now = json.option(Json::timestamp)?,
                    _ => self.0.customer_orders = json.option(Json::unsigned)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| Ok(Ok(s.0)))
    }

    /// The discount's `kind` (`deserialize_enum` of unit variants): a string, or `{"<kind>": null}`.
    pub(super) fn kind(&mut self) -> Read<KindText> {
        match self.value_start()? {
            b'"' => {
                self.at += 1;
                let name = self.string()?;
                variant(&name)
            }
            b'{' => {
                self.enter()?;
                let ret = self.kind_object();
                self.depth += 1;
                let kind = ret?;
                match self.blank() {
                    Some(b'}') => {
                        self.at += 1;
                        Ok(kind)
                    }
                    Some(_) => Err(self.error(EXPECTED_VALUE)),
                    None => Err(self.error(EOF_OBJECT)),
                }
            }
            _ => Err(self.peek_error(EXPECTED_VALUE)),
        }
    }

    pub(super) fn kind_object(&mut self) -> Read<KindText> {
        match self.blank() {
            Some(b'"') => {}
            Some(b'}') => return Err(self.peek_error(EXPECTED_VALUE)),
            Some(_) => return Err(self.peek_error(KEY_STRING)),
            None => return Err(self.peek_error(EOF_OBJECT)),
        }
        self.at += 1;
        let name = self.string()?;
        let kind = variant(&name)?;
        self.colon()?;
        let unit = match self.value_start() {
            Ok(b'n') => {
                self.at += 1;
                self.ident(b"ull")
            }
            Ok(_) => Err(self.invalid_type("unit")),
            Err(fail) => Err(fail),
        };
        inside(unit, || Seg::Key(name))?;
        Ok(kind)
    }

    pub(super) fn percent(&mut self) -> Read<PercentText> {
        let text = self.str_value(DecimalText::EXPECTING)?;
        PercentText::from_text(&text).map_err(|err| refused(Refused::at("", err)))
    }

    pub(super) fn discount(&mut self) -> Read<Discount> {
        const SHAPE: Shape = Shape {
            expecting: "struct DiscountFields",
            names: &[
                "kind",
                "percent",
                "max",
                "amount",
                "buy",
                "get",
                "max_applications",
                "selection",
                "by",
                "tiers",
            ],
            defaults: 0b11_1111_1110,
        };
        #[derive(Default)]
        struct S {
            kind: Option<KindText>,
            percent: Option<PercentText>,
            max: Option<Money>,
            amount: Option<Money>,
            buy: Option<BuyRepr>,
            get: Option<GetRepr>,
            max_applications: Option<u64>,
            selection: Option<String>,
            by: Option<String>,
            tiers: Option<Vec<TierRepr>>,
        }
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.kind = Some(json.kind()?),
                    1 => self.percent = json.option(Json::percent)?,
                    2 => self.max = json.option(Json::money)?,
                    3 => self.amount = json.option(Json::money)?,
                    4 => self.buy = json.option(Json::buy)?,
                    5 => self.get = json.option(Json::get)?,
                    6 => self.max_applications = json.option(Json::unsigned)?,
                    7 => self.selection = json.option(|json| json.str_value("a string"))?,
                    8 => self.by = json.option(|json| json.str_value("a string"))?,
                    _ => self.tiers = json.option(|json| json.list(Json::tier))?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            let fields = DiscountFields {
                kind: required(s.kind)?,
                percent: s.percent,
                max: s.max,
                amount: s.amount,
                buy: s.buy,
                get: s.get,
                max_applications: s.max_applications,
                selection: s.selection,
                by: s.by,
                tiers: s.tiers,
            };
            Ok(fields.finish())
        })
    }

    pub(super) fn applies_to(&mut self) -> Read<AppliesTo> {
        const SHAPE: Shape = Shape {
            expecting: "struct ScopeRepr",
            names: &["skus", "categories"],
            defaults: 0b11,
        };
        #[derive(Default)]
        struct S(Vec<Sku>, Vec<Category>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = json.list(Json::sku)?,
                    _ => self.1 = json.list(Json::category)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            Ok(ScopeRepr {
                skus: s.0,
                categories: s.1,
            }
            .finish())
        })
    }

    pub(super) fn limits(&mut self) -> Read<UsageLimits> {
        const SHAPE: Shape = Shape {
            expecting: "struct LimitsRepr",
            names: &["total", "per_customer", "budget", "when_budget_short"],
            defaults: 0b1111,
        };
        #[derive(Default)]
        struct S(Option<u64>, Option<u64>, Option<Money>, Option<String>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = json.option(Json::unsigned)?,
                    1 => self.1 = json.option(Json::unsigned)?,
                    2 => self.2 = json.option(Json::money)?,
                    _ => self.3 = json.option(|json| json.str_value("a string"))?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            Ok(LimitsRepr {
                total: s.0,
                per_customer: s.1,
                budget: s.2,
                when_budget_short: s.3,
            }
            .finish())
        })
    }

    pub(super) fn definition(&mut self) -> Read<PromoCode> {
        const SHAPE: Shape = Shape {
            expecting: "struct DefinitionRepr",
            names: &PromoCode::FIELDS,
            defaults: 0b11_1111_1111_1010,
        };
        #[derive(Default)]
        struct S {
            code: Option<Code>,
            active: Option<bool>,
            discount: Option<Discount>,
            applies_to: Option<AppliesTo>,
            limits: Option<UsageLimits>,
            starts_at: Option<Timestamp>,
            ends_at: Option<Timestamp>,
            minimum: Option<Money>,
            audience: Option<Vec<CustomerId>>,
            combines_with: Option<Vec<String>>,
            first_order: Option<bool>,
            automatic: Option<bool>,
            priority: Option<u64>,
            shards: Option<u64>,
        }
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.code = Some(json.code()?),
                    1 => self.active = json.option(Json::boolean)?,
                    2 => self.discount = Some(json.discount()?),
                    3 => self.applies_to = json.option(Json::applies_to)?,
                    4 => self.limits = json.option(Json::limits)?,
                    5 => self.starts_at = json.option(Json::timestamp)?,
                    6 => self.ends_at = json.option(Json::timestamp)?,
                    7 => self.minimum = json.option(Json::money)?,
                    8 => self.audience = json.option(|json| json.list(Json::customer))?,
                    9 => self.combines_with = json.option(|json| json.list(|json| json.str_value("a string")))?,
                    10 => self.first_order = json.option(Json::boolean)?,
                    11 => self.automatic = json.option(Json::boolean)?,
                    12 => self.priority = json.option(Json::unsigned)?,
                    _ => self.shards = json.option(Json::unsigned)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            let repr = DefinitionRepr {
                code: required(s.code)?,
                active: s.active,
                discount: required(s.discount)?,
                applies_to: s.applies_to,
                limits: s.limits,
                starts_at: s.starts_at,
                ends_at: s.ends_at,
                minimum: s.minimum,
                audience: s.audience,
                combines_with: s.combines_with,
                first_order: s.first_order,
                automatic: s.automatic,
                priority: s.priority,
                shards: s.shards,
            };
            Ok(repr.finish())
        })
    }
}
