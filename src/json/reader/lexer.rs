//! The lexer: bytes, whitespace, literals and strings, as serde_json reads them.

use super::*;

impl<'a> Json<'a> {
    // --- bytes ---

    pub(super) fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    /// Skips whitespace; the next byte.
    pub(super) fn blank(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.at += 1;
        }
        self.peek()
    }

    pub(super) fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    /// A syntax error at byte `index`, with serde_json's line and column.
    pub(super) fn syntax(&self, code: &str, index: usize) -> Fail {
        let before = &self.text[..index];
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let line = 1 + before[..line_start].iter().filter(|&&b| b == b'\n').count();
        Fail::Syntax(format!("{code} at line {line} column {}", index - line_start))
    }

    /// serde_json's `error`: at the current position.
    pub(super) fn error(&self, code: &str) -> Fail {
        self.syntax(code, self.at)
    }

    /// serde_json's `peek_error`: at the byte just peeked.
    pub(super) fn peek_error(&self, code: &str) -> Fail {
        self.syntax(code, (self.at + 1).min(self.text.len()))
    }

    /// The rest of `null`, `true` or `false`.
    pub(super) fn ident(&mut self, rest: &[u8]) -> Read<()> {
        for &expected in rest {
            match self.next() {
                None => return Err(self.error(EOF_VALUE)),
                Some(byte) if byte != expected => return Err(self.error(EXPECTED_IDENT)),
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// serde_json's `check_recursion`, going in.
    pub(super) fn enter(&mut self) -> Read<()> {
        self.depth -= 1;
        if self.depth == 0 {
            return Err(self.peek_error(RECURSION));
        }
        self.at += 1;
        Ok(())
    }

    // --- strings ---

    /// A string's contents, its opening quote already read.
    pub(super) fn string(&mut self) -> Read<String> {
        let mut out: Vec<u8> = Vec::new();
        let mut start = self.at;
        loop {
            while self.peek().is_some_and(|b| b != b'"' && b != b'\\' && b >= 0x20) {
                self.at += 1;
            }
            match self.peek() {
                None => return Err(self.error(EOF_STRING)),
                Some(b'"') => {
                    out.extend_from_slice(&self.text[start..self.at]);
                    self.at += 1;
                    // The text is a `&str` and escapes only add whole characters.
                    return Ok(String::from_utf8(out).unwrap_or_default());
                }
                Some(b'\\') => {
                    out.extend_from_slice(&self.text[start..self.at]);
                    self.at += 1;
                    self.escape(&mut out)?;
                    start = self.at;
                }
                Some(_) => {
                    self.at += 1;
                    return Err(self.error(CONTROL));
                }
            }
        }
    }

    pub(super) fn escape(&mut self, out: &mut Vec<u8>) -> Read<()> {
        let byte = match self.next() {
            Some(byte) => byte,
            None => return Err(self.error(EOF_STRING)),
        };
        let simple = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => b'\x08',
            b'f' => b'\x0c',
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => return self.unicode_escape(out),
            _ => return Err(self.error(INVALID_ESCAPE)),
        };
        out.push(simple);
        Ok(())
    }

    pub(super) fn hex4(&mut self) -> Read<u16> {
        let Some(digits) = self.text.get(self.at..self.at + 4) else {
            self.at = self.text.len();
            return Err(self.error(EOF_STRING));
        };
        self.at += 4;
        let mut value = 0_u16;
        for &digit in digits {
            let nibble = match digit {
                b'0'..=b'9' => digit - b'0',
                b'a'..=b'f' => digit - b'a' + 10,
                b'A'..=b'F' => digit - b'A' + 10,
                _ => return Err(self.error(INVALID_ESCAPE)),
            };
            value = value * 16 + u16::from(nibble);
        }
        Ok(value)
    }

    /// A `\u` escape (validating: surrogates must pair).
    pub(super) fn unicode_escape(&mut self, out: &mut Vec<u8>) -> Read<()> {
        let first = self.hex4()?;
        if (0xDC00..=0xDFFF).contains(&first) {
            return Err(self.error(LONE_SURROGATE));
        }
        let code = if (0xD800..=0xDBFF).contains(&first) {
            for expected in [b'\\', b'u'] {
                match self.peek() {
                    None => return Err(self.error(EOF_STRING)),
                    Some(byte) => {
                        self.at += 1;
                        if byte != expected {
                            return Err(self.error(HEX_END));
                        }
                    }
                }
            }
            let second = self.hex4()?;
            if !(0xDC00..=0xDFFF).contains(&second) {
                return Err(self.error(LONE_SURROGATE));
            }
            ((u32::from(first - 0xD800) << 10) | u32::from(second - 0xDC00)) + 0x1_0000
        } else {
            u32::from(first)
        };
        let character = char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
        out.extend_from_slice(character.encode_utf8(&mut [0; 4]).as_bytes());
        Ok(())
    }
}
