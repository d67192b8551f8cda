//! Numbers, as serde_json's parser reads them (without `float_roundtrip`).

use super::*;

impl<'a> Json<'a> {
    // --- numbers (serde_json's parser, without `float_roundtrip`) ---

    /// A number, its `-` (if any) already read.
    pub(super) fn number(&mut self, positive: bool) -> Read<Number> {
        let first = match self.next() {
            Some(byte) => byte,
            None => return Err(self.error(EOF_VALUE)),
        };
        match first {
            b'0' => match self.peek() {
                Some(b'0'..=b'9') => Err(self.peek_error(INVALID_NUMBER)),
                _ => self.number_rest(positive, 0),
            },
            b'1'..=b'9' => {
                let mut significand = u64::from(first - b'0');
                loop {
                    match self.peek() {
                        Some(digit @ b'0'..=b'9') => {
                            let digit = u64::from(digit - b'0');
                            match significand.checked_mul(10).and_then(|s| s.checked_add(digit)) {
                                Some(next) => {
                                    self.at += 1;
                                    significand = next;
                                }
                                None => return self.long_integer(positive, significand).map(Number::Float),
                            }
                        }
                        _ => return self.number_rest(positive, significand),
                    }
                }
            }
            _ => Err(self.error(INVALID_NUMBER)),
        }
    }

    pub(super) fn number_rest(&mut self, positive: bool, significand: u64) -> Read<Number> {
        Ok(match self.peek() {
            Some(b'.') => Number::Float(self.decimal(positive, significand, 0)?),
            Some(b'e' | b'E') => Number::Float(self.exponent(positive, significand, 0)?),
            _ if positive => Number::Unsigned(significand),
            _ => {
                let negative = (significand as i64).wrapping_neg();
                if negative >= 0 {
                    Number::Float(-(significand as f64))
                } else {
                    Number::Signed(negative)
                }
            }
        })
    }

    pub(super) fn decimal(&mut self, positive: bool, mut significand: u64, exponent_before: i32) -> Read<f64> {
        self.at += 1;
        let mut exponent_after = 0;
        while let Some(digit @ b'0'..=b'9') = self.peek() {
            let digit = u64::from(digit - b'0');
            match significand.checked_mul(10).and_then(|s| s.checked_add(digit)) {
                Some(next) => {
                    self.at += 1;
                    significand = next;
                    exponent_after -= 1;
                }
                None => {
                    while let Some(b'0'..=b'9') = self.peek() {
                        self.at += 1;
                    }
                    let exponent = exponent_before + exponent_after;
                    return match self.peek() {
                        Some(b'e' | b'E') => self.exponent(positive, significand, exponent),
                        _ => self.float_of(positive, significand, exponent),
                    };
                }
            }
        }
        if exponent_after == 0 {
            return Err(match self.peek() {
                Some(_) => self.peek_error(INVALID_NUMBER),
                None => self.peek_error(EOF_VALUE),
            });
        }
        let exponent = exponent_before + exponent_after;
        match self.peek() {
            Some(b'e' | b'E') => self.exponent(positive, significand, exponent),
            _ => self.float_of(positive, significand, exponent),
        }
    }

    pub(super) fn exponent(&mut self, positive: bool, significand: u64, starting: i32) -> Read<f64> {
        self.at += 1;
        let positive_exponent = match self.peek() {
            Some(b'+') => {
                self.at += 1;
                true
            }
            Some(b'-') => {
                self.at += 1;
                false
            }
            _ => true,
        };
        let mut exponent = match self.next() {
            Some(digit @ b'0'..=b'9') => i32::from(digit - b'0'),
            Some(_) => return Err(self.error(INVALID_NUMBER)),
            None => return Err(self.error(EOF_VALUE)),
        };
        while let Some(digit @ b'0'..=b'9') = self.peek() {
            self.at += 1;
            match exponent
                .checked_mul(10)
                .and_then(|e| e.checked_add(i32::from(digit - b'0')))
            {
                Some(next) => exponent = next,
                None => {
                    if significand != 0 && positive_exponent {
                        return Err(self.error(OUT_OF_RANGE));
                    }
                    while let Some(b'0'..=b'9') = self.peek() {
                        self.at += 1;
                    }
                    return Ok(if positive { 0.0 } else { -0.0 });
                }
            }
        }
        let exponent = if positive_exponent {
            starting.saturating_add(exponent)
        } else {
            starting.saturating_sub(exponent)
        };
        self.float_of(positive, significand, exponent)
    }

    pub(super) fn long_integer(&mut self, positive: bool, significand: u64) -> Read<f64> {
        let mut exponent = 0;
        loop {
            match self.peek() {
                Some(b'0'..=b'9') => {
                    self.at += 1;
                    exponent += 1;
                }
                Some(b'.') => return self.decimal(positive, significand, exponent),
                Some(b'e' | b'E') => return self.exponent(positive, significand, exponent),
                _ => return self.float_of(positive, significand, exponent),
            }
        }
    }

    pub(super) fn float_of(&mut self, positive: bool, significand: u64, mut exponent: i32) -> Read<f64> {
        let mut value = significand as f64;
        loop {
            match pow10(exponent.unsigned_abs() as usize) {
                Some(pow) => {
                    if exponent >= 0 {
                        value *= pow;
                        if value.is_infinite() {
                            return Err(self.error(OUT_OF_RANGE));
                        }
                    } else {
                        value /= pow;
                    }
                    break;
                }
                None => {
                    if value == 0.0 {
                        break;
                    }
                    if exponent >= 0 {
                        return Err(self.error(OUT_OF_RANGE));
                    }
                    value /= 1e308;
                    exponent += 308;
                }
            }
        }
        Ok(if positive { value } else { -value })
    }
}
