//! Structure: values of one type, options, lists, objects and structs read
//! as serde's derive reads them.

use super::*;

impl<'a> Json<'a> {
    // --- values of one type (serde_json's `deserialize_*`) ---

    /// serde_json's `peek_invalid_type`: what the value here is, for "invalid type: ...".
    pub(super) fn unexpected(&mut self) -> Read<String> {
        Ok(match self.peek().unwrap_or(0) {
            b'n' => {
                self.at += 1;
                self.ident(b"ull")?;
                "null".to_owned()
            }
            b't' => {
                self.at += 1;
                self.ident(b"rue")?;
                "boolean `true`".to_owned()
            }
            b'f' => {
                self.at += 1;
                self.ident(b"alse")?;
                "boolean `false`".to_owned()
            }
            b'-' => {
                self.at += 1;
                self.number(false)?.to_string()
            }
            b'0'..=b'9' => self.number(true)?.to_string(),
            b'"' => {
                self.at += 1;
                format!("string {}", crate::values::Quoted(&self.string()?))
            }
            b'[' => "sequence".to_owned(),
            b'{' => "map".to_owned(),
            _ => return Err(self.peek_error(EXPECTED_VALUE)),
        })
    }

    /// "invalid type: <what is here>, expected <expecting>".
    pub(super) fn invalid_type(&mut self, expecting: &str) -> Fail {
        match self.unexpected() {
            Ok(what) => message(format!("invalid type: {what}, expected {expecting}")),
            Err(fail) => fail,
        }
    }

    /// The next byte of a value, or serde_json's end-of-input error.
    pub(super) fn value_start(&mut self) -> Read<u8> {
        self.blank().ok_or_else(|| self.peek_error(EOF_VALUE))
    }

    /// `deserialize_str`: a string.
    pub(super) fn str_value(&mut self, expecting: &str) -> Read<String> {
        if self.value_start()? != b'"' {
            return Err(self.invalid_type(expecting));
        }
        self.at += 1;
        self.string()
    }

    /// A string that `parse` checks (an identifier, a currency, a time).
    pub(super) fn parsed<T>(&mut self, expecting: &str, parse: fn(&str) -> Result<T, InputError>) -> Read<T> {
        let text = self.str_value(expecting)?;
        parse(&text).map_err(|err| refused(Refused::at("", err)))
    }

    /// `deserialize_u64` (serde_json's `deserialize_number`): a number.
    pub(super) fn number_value(&mut self, expecting: &str) -> Read<Number> {
        match self.value_start()? {
            b'-' => {
                self.at += 1;
                self.number(false)
            }
            b'0'..=b'9' => self.number(true),
            _ => Err(self.invalid_type(expecting)),
        }
    }

    /// A `u64`, as serde's own visitor takes it.
    pub(super) fn unsigned(&mut self) -> Read<u64> {
        match self.number_value("u64")? {
            Number::Unsigned(n) => Ok(n),
            Number::Signed(n) => Err(message(format!("invalid value: integer `{n}`, expected u64"))),
            float => Err(message(format!("invalid type: {float}, expected u64"))),
        }
    }

    /// A `bool`.
    pub(super) fn boolean(&mut self) -> Read<bool> {
        match self.value_start()? {
            b't' => {
                self.at += 1;
                self.ident(b"rue")?;
                Ok(true)
            }
            b'f' => {
                self.at += 1;
                self.ident(b"alse")?;
                Ok(false)
            }
            _ => Err(self.invalid_type("a boolean")),
        }
    }

    /// An `Option`: `null` is `None`.
    pub(super) fn option<T>(&mut self, read: fn(&mut Json<'a>) -> Read<T>) -> Read<Option<T>> {
        if self.blank() == Some(b'n') {
            self.at += 1;
            self.ident(b"ull")?;
            return Ok(None);
        }
        read(self).map(Some)
    }

    /// Before each element of an array: whether there is one (serde_json's `SeqAccess`).
    pub(super) fn element(&mut self, first: &mut bool) -> Read<bool> {
        let peek = match self.blank() {
            Some(b']') => return Ok(false),
            Some(b',') if !*first => {
                self.at += 1;
                self.blank()
            }
            Some(byte) if *first => {
                *first = false;
                Some(byte)
            }
            Some(_) => return Err(self.peek_error(LIST_COMMA)),
            None => return Err(self.peek_error(EOF_LIST)),
        };
        match peek {
            Some(b']') => Err(self.peek_error(TRAILING_COMMA)),
            Some(_) => Ok(true),
            None => Err(self.peek_error(EOF_VALUE)),
        }
    }

    /// After the elements of an array (serde_json's `end_seq`).
    pub(super) fn end_seq(&mut self) -> Read<()> {
        match self.blank() {
            Some(b']') => {
                self.at += 1;
                Ok(())
            }
            Some(b',') => {
                self.at += 1;
                match self.blank() {
                    Some(b']') => Err(self.peek_error(TRAILING_COMMA)),
                    _ => Err(self.peek_error(TRAILING)),
                }
            }
            Some(_) => Err(self.peek_error(TRAILING)),
            None => Err(self.peek_error(EOF_LIST)),
        }
    }

    /// A `Vec` (`deserialize_seq`).
    pub(super) fn list<T>(&mut self, read: fn(&mut Json<'a>) -> Read<T>) -> Read<Vec<T>> {
        if self.value_start()? != b'[' {
            return Err(self.invalid_type("a sequence"));
        }
        self.enter()?;
        let mut items = Vec::new();
        let mut first = true;
        let ret = loop {
            match self.element(&mut first) {
                Ok(true) => {}
                Ok(false) => break Ok(()),
                Err(fail) => break Err(fail),
            }
            let index = items.len();
            match inside(read(self), || Seg::Index(index)) {
                Ok(item) => items.push(item),
                Err(fail) => break Err(fail),
            }
        };
        self.depth += 1;
        ret?;
        self.end_seq()?;
        Ok(items)
    }

    /// Before each key of an object: the key, if there is one (serde_json's `MapAccess`).
    pub(super) fn key(&mut self, first: &mut bool) -> Read<Option<String>> {
        let peek = match self.blank() {
            Some(b'}') => return Ok(None),
            Some(b',') if !*first => {
                self.at += 1;
                self.blank()
            }
            Some(byte) if *first => {
                *first = false;
                Some(byte)
            }
            Some(_) => return Err(self.peek_error(OBJECT_COMMA)),
            None => return Err(self.peek_error(EOF_OBJECT)),
        };
        match peek {
            Some(b'"') => {
                self.at += 1;
                self.string().map(Some)
            }
            Some(b'}') => Err(self.peek_error(TRAILING_COMMA)),
            Some(_) => Err(self.peek_error(KEY_STRING)),
            None => Err(self.peek_error(EOF_VALUE)),
        }
    }

    /// The `:` after a key.
    pub(super) fn colon(&mut self) -> Read<()> {
        match self.blank() {
            Some(b':') => {
                self.at += 1;
                Ok(())
            }
            Some(_) => Err(self.peek_error(EXPECTED_COLON)),
            None => Err(self.peek_error(EOF_OBJECT)),
        }
    }

    /// A struct as serde's derive reads it (`deserialize_struct`, with
    /// `deny_unknown_fields`): from an object, or an array of its fields.
    pub(super) fn structure(&mut self, shape: &Shape, slots: &mut dyn Slots) -> Read<()> {
        match self.value_start()? {
            b'{' => {
                self.enter()?;
                let ret = self.fields(shape, slots);
                self.depth += 1;
                ret?;
                // The object's `}` is next: `fields` stopped at it.
                self.at += 1;
                Ok(())
            }
            b'[' => {
                self.enter()?;
                let ret = self.fields_in_order(shape, slots);
                self.depth += 1;
                ret?;
                self.end_seq()
            }
            _ => Err(self.invalid_type(shape.expecting)),
        }
    }

    /// derive's `visit_map`.
    pub(super) fn fields(&mut self, shape: &Shape, slots: &mut dyn Slots) -> Read<()> {
        let mut seen = 0_u16;
        let mut first = true;
        while let Some(key) = self.key(&mut first)? {
            let Some(field) = shape.names.iter().position(|name| *name == key) else {
                let text = format!("unknown field `{key}`, expected {}", one_of(shape.names));
                return Err(Fail::At(vec![Seg::Key(key)], Refused::Message(text)));
            };
            if seen & (1 << field) != 0 {
                return Err(message(format!("duplicate field `{key}`")));
            }
            seen |= 1 << field;
            self.colon()?;
            inside(slots.read(self, field), || Seg::Key(key))?;
        }
        let missing = (0..shape.names.len()).find(|&i| (seen | shape.defaults) & (1 << i) == 0);
        match missing {
            Some(i) => Err(message(format!("missing field `{}`", shape.names[i]))),
            None => Ok(()),
        }
    }

    /// derive's `visit_seq`: the fields in order; a missing field with a default is its default.
    pub(super) fn fields_in_order(&mut self, shape: &Shape, slots: &mut dyn Slots) -> Read<()> {
        let count = shape.names.len();
        let mut first = true;
        for field in 0..count {
            if self.element(&mut first)? {
                inside(slots.read(self, field), || Seg::Index(field))?;
            } else if shape.defaults & (1 << field) == 0 {
                return Err(message(format!(
                    "invalid length {field}, expected {} with {count} elements",
                    shape.expecting
                )));
            }
        }
        Ok(())
    }

    /// A struct's finished value, or its refusal at its own place.
    pub(super) fn finish<R, T>(
        &mut self,
        shape: &Shape,
        mut slots: R,
        done: fn(R) -> Read<Result<T, Refused>>,
    ) -> Read<T>
    where
        R: Slots,
    {
        self.structure(shape, &mut slots)?;
        done(slots)?.map_err(refused)
    }
}
