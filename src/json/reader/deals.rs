//! The shapes of buy X get Y and tiered discounts: a buy, a get, a tier and
//! its `from`, read as serde reads them.

use super::*;

impl<'a> Json<'a> {
    #[inline(never)]
    pub(super) fn buy(&mut self) -> Read<BuyRepr> {
        const SHAPE: Shape = Shape {
            expecting: "struct BuyRepr",
            names: &["quantity", "amount", "applies_to"],
            defaults: 0b111,
        };
        #[derive(Default)]
        struct S(Option<u64>, Option<Money>, Option<AppliesTo>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = json.option(Json::unsigned)?,
                    1 => self.1 = json.option(Json::money)?,
                    _ => self.2 = json.option(Json::applies_to)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            Ok(Ok(BuyRepr {
                quantity: s.0,
                amount: s.1,
                applies_to: s.2,
            }))
        })
    }

    #[inline(never)]
    pub(super) fn get(&mut self) -> Read<GetRepr> {
        const SHAPE: Shape = Shape {
            expecting: "struct GetRepr",
            names: &["quantity", "applies_to", "percent", "amount"],
            defaults: 0b1110,
        };
        #[derive(Default)]
        struct S(Option<u64>, Option<AppliesTo>, Option<PercentText>, Option<Money>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = Some(json.unsigned()?),
                    1 => self.1 = json.option(Json::applies_to)?,
                    2 => self.2 = json.option(Json::percent)?,
                    _ => self.3 = json.option(Json::money)?,
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            Ok(Ok(GetRepr {
                quantity: required(s.0)?,
                applies_to: s.1,
                percent: s.2,
                amount: s.3,
            }))
        })
    }

    #[inline(never)]
    pub(super) fn tier(&mut self) -> Read<TierRepr> {
        const SHAPE: Shape = Shape {
            expecting: "struct TierRepr",
            names: &["from", "discount"],
            defaults: 0,
        };
        #[derive(Default)]
        struct S(Option<TierFrom>, Option<Discount>);
        impl Slots for S {
            fn read(&mut self, json: &mut Json<'_>, field: usize) -> Read<()> {
                match field {
                    0 => self.0 = Some(json.tier_from()?),
                    _ => self.1 = Some(json.discount()?),
                }
                Ok(())
            }
        }
        self.finish(&SHAPE, S::default(), |s| {
            Ok(Ok(TierRepr {
                from: required(s.0)?,
                discount: required(s.1)?,
            }))
        })
    }

    /// A tier's `from` (`deserialize_any`): a money object or a whole number.
    #[inline(never)]
    pub(super) fn tier_from(&mut self) -> Read<TierFrom> {
        let fail = |err| refused(Refused::at("", err));
        match self.value_start()? {
            b'{' => self.money().map(TierFrom::Amount),
            b'-' | b'0'..=b'9' => match self.number_value(FROM_EXPECTING)? {
                Number::Unsigned(n) => from_count(u32::try_from(n).ok(), || n.to_string()).map_err(fail),
                Number::Signed(n) => from_count(u32::try_from(n).ok(), || n.to_string()).map_err(fail),
                float => Err(message(format!("invalid type: {float}, expected {FROM_EXPECTING}"))),
            },
            _ => Err(self.invalid_type(FROM_EXPECTING)),
        }
    }
}
