//! Shapes shared by several endpoints: winds and win kinds, payments and
//! money, and the object-only readers serde's derive lacks.

use crate::core::ruleset::{LimitsPay, Money};
use crate::core::{
    DiscardPayment, LiableDiscard, MeldKind, MultipleWinners, Replacement, RobbedKong, Ruleset,
    WinBy, Wind,
};
use serde::{Deserialize, Serialize};
use std::io::Write as _;
use utoipa::ToSchema;
// ------------------------------------------------------ keys once

/// A key may appear once in an object (docs/api.md, "Bounds on what one
/// request may cost"): a map read as the last value wins would let
/// `{"all_chows": 1, "all_chows": null}` switch a pattern off unseen.
pub mod unique {
    use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
    use serde::Deserialize;
    use std::collections::BTreeMap;
    use std::fmt;
    use std::marker::PhantomData;

    /// Refuses a repeated key. Read as the key's value, so the error's path
    /// (serde_path_to_error's, on the refusal's second read) ends in the key.
    pub struct Repeated<'k>(pub &'k str);

    impl<'de> DeserializeSeed<'de> for Repeated<'_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, _: D) -> Result<(), D::Error> {
            Err(de::Error::custom(format_args!(
                "duplicate key {}: each key may appear once",
                crate::core::echo::Quoted(self.0)
            )))
        }
    }

    /// A map of string keys, each at most once.
    pub fn map<'de, D: Deserializer<'de>, V: Deserialize<'de>>(
        d: D,
    ) -> Result<BTreeMap<String, V>, D::Error> {
        struct M<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for M<V> {
            type Value = BTreeMap<String, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = BTreeMap::new();
                while let Some(key) = map.next_key::<String>()? {
                    if out.contains_key(&key) {
                        map.next_value_seed(Repeated(&key))?;
                    }
                    let v = map.next_value()?;
                    out.insert(key, v);
                }
                Ok(out)
            }
        }
        d.deserialize_map(M(PhantomData))
    }
}

// ------------------------------------------------------ objects only

/// serde's derived `Deserialize` for a struct also accepts a JSON array (the
/// fields by position), so `"house_rules": [1]` would read as `min_faan: 1`.
/// These helpers accept an object only; anything else is a 422 at its pointer.
pub mod object_only {
    use serde::de::{
        self, value::MapAccessDeserializer, Deserialize, Deserializer, MapAccess, SeqAccess,
        Visitor,
    };
    use std::fmt;
    use std::marker::PhantomData;

    struct Object<T>(PhantomData<T>);

    impl<'de, T: Deserialize<'de>> Visitor<'de> for Object<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::deserialize(MapAccessDeserializer::new(map))
        }
    }

    /// A struct, from an object only.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        d: D,
    ) -> Result<T, D::Error> {
        d.deserialize_map(Object(PhantomData))
    }

    /// An optional struct: absent or `null` is `None`, an object is `Some`.
    pub fn option<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Option<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object or null")
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Self::Value, D2::Error> {
                deserialize(d).map(Some)
            }
        }
        d.deserialize_option(V(PhantomData))
    }

    /// A list of structs, each from an object only.
    pub fn vec<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
        struct Item<T>(T);
        impl<'de, T: Deserialize<'de>> Deserialize<'de> for Item<T> {
            fn deserialize<D2: Deserializer<'de>>(d: D2) -> Result<Self, D2::Error> {
                deserialize(d).map(Item)
            }
        }
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON array of objects")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(16));
                while let Some(Item(t)) = seq.next_element::<Item<T>>()? {
                    out.push(t);
                }
                Ok(out)
            }
        }
        d.deserialize_seq(V(PhantomData))
    }
}

/// serde's `borrow` reads a field borrowed from the body only when its type
/// is `Cow<str>` itself: an `Option<Cow<str>>` or a `Vec<Cow<str>>` is read
/// into owned `String`s, an allocation each (a winning tile, a discarder:
/// thousands in a ledger). These read them borrowed (owned only when the
/// string has escapes); the errors are the same ("expected a string").
pub mod borrowed {
    use serde::{Deserialize, Deserializer};
    use std::borrow::Cow;

    #[derive(Deserialize)]
    #[serde(transparent)]
    struct Str<'a>(#[serde(borrow)] Cow<'a, str>);

    /// An optional string: absent or `null` is `None`.
    pub fn option<'de: 'a, 'a, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Cow<'a, str>>, D::Error> {
        Ok(Option::<Str<'a>>::deserialize(d)?.map(|s| s.0))
    }

    /// An optional list of strings: absent or `null` is `None`.
    pub fn option_vec<'de: 'a, 'a, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Vec<Cow<'a, str>>>, D::Error> {
        Ok(Option::<Vec<Str<'a>>>::deserialize(d)?.map(|v| v.into_iter().map(|s| s.0).collect()))
    }

    /// A list of strings.
    pub fn vec<'de: 'a, 'a, D: Deserializer<'de>>(d: D) -> Result<Vec<Cow<'a, str>>, D::Error> {
        Ok(Vec::<Str<'a>>::deserialize(d)?
            .into_iter()
            .map(|s| s.0)
            .collect())
    }
}

// ------------------------------------------------------ word enums

/// The schema of a word enum: its words (strum's, by the rule its serde
/// reads and writes them with), under the name the contract published it.
pub fn word_schema<T: strum::VariantNames>(
    description: Option<&str>,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .description(description)
        .enum_values(Some(T::VARIANTS.iter().copied()))
        .into()
}

// The core's word enums are read and written by their own serde (their wire
// words are the core's); the core knows no OpenAPI, so their schemas are here.
macro_rules! word_schemas {
    ($($t:ty => $name:literal, $doc:expr;)*) => {$(
        impl utoipa::PartialSchema for $t {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                word_schema::<$t>($doc)
            }
        }
        impl ToSchema for $t {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed($name)
            }
        }
    )*};
}

word_schemas! {
    MeldKind => "MeldKindDto", None;
    Wind => "WindDto", Some("A seat or a wind.");
    WinBy => "WinByDto", None;
    Replacement => "ReplacementDto", Some("Which replacement draw, if any, was the winning tile.");
    RobbedKong => "RobbedKongDto", Some("Which kind of kong a robbing-the-kong win robbed.");
    LimitsPay => "LimitsPayDto", None;
    MultipleWinners => "MultipleWinnersDto", None;
    LiableDiscard => "LiableDiscardDto", None;
    DiscardPayment => "DiscardPaymentDto", None;
}

// ---------------------------------------------------------------- responses

/// Signed points by seat; positive for the winner, summing to zero.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct Payments {
    pub east: i64,
    pub south: i64,
    pub west: i64,
    pub north: i64,
}

impl From<[i64; 4]> for Payments {
    fn from(p: [i64; 4]) -> Self {
        Payments {
            east: p[0],
            south: p[1],
            west: p[2],
            north: p[3],
        }
    }
}

/// Signed amounts in US dollars by seat.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct MoneyPayments {
    #[schema(value_type = f64)]
    pub east: Amount,
    #[schema(value_type = f64)]
    pub south: Amount,
    #[schema(value_type = f64)]
    pub west: Amount,
    #[schema(value_type = f64)]
    pub north: Amount,
}

/// An amount of money in whole cents, written as an exact decimal number:
/// `12.34`, `-0.5`, `100.0` (the form serde_json's shortest float gave every
/// amount a float holds to the cent, so answers stay byte for byte). The core
/// refuses amounts beyond 2^53 - 1 cents (`settle::MAX_CENTS`), so a client
/// reading it into a double gets it to the cent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Amount(pub i64);

impl Amount {
    /// The decimal text, in a stack buffer (no allocation).
    pub fn text(self) -> AmountText {
        let mut t = AmountText {
            buf: [0; 24],
            len: 0,
        };
        let c = self.0.unsigned_abs();
        let (whole, cents) = (c / 100, c % 100);
        let mut w = &mut t.buf[..];
        let sign = if self.0 < 0 { "-" } else { "" };
        // 24 bytes hold any i64 of cents ("-" + 17 digits + "." + 2).
        let _ = if cents % 10 == 0 {
            write!(w, "{sign}{whole}.{}", cents / 10)
        } else {
            write!(w, "{sign}{whole}.{cents:02}")
        };
        t.len = (24 - w.len()) as u8;
        t
    }
}

impl std::fmt::Display for Amount {
    /// Signed, to two places (`+12.30`, `-0.50`): the CLI's table.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = self.0.unsigned_abs();
        let sign = if self.0 < 0 { '-' } else { '+' };
        write!(f, "{sign}{}.{:02}", c / 100, c % 100)
    }
}

/// [`Amount::text`]'s bytes.
pub struct AmountText {
    buf: [u8; 24],
    len: u8,
}

impl AmountText {
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len as usize]
    }

    pub fn as_str(&self) -> &str {
        // Only ASCII digits, '-' and '.' are written.
        std::str::from_utf8(self.as_bytes()).unwrap_or("0.0")
    }
}

impl Serialize for Amount {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // A number token as written (serde_json's raw value), not through a float.
        let raw = serde_json::value::RawValue::from_string(self.text().as_str().to_string())
            .map_err(serde::ser::Error::custom)?;
        raw.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Amount {
    /// Read back from a number (tests and clients of the types): to the nearest cent.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = f64::deserialize(d)?;
        Ok(Amount((v * 100.0).round() as i64))
    }
}

/// The payments in money: at a stake (house rule `stake`, or a ruleset's
/// `[table]` default), or at the ruleset's own chip rate.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct MoneyDto {
    /// Money per point, when a stake is set (it then takes the place of any chip rate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = 0.05)]
    pub stake: Option<f64>,
    /// The ruleset's own rate (no stake set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd_per_100_chips: Option<f64>,
    /// Chips each paying player adds to every payment (the ruleset's own rate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus_chips: Option<u32>,
    /// Money by seat, to the cent (absent on the ruleset endpoints).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payments: Option<MoneyPayments>,
}

/// Cents by seat as money.
fn money_payments(c: [i64; 4]) -> MoneyPayments {
    MoneyPayments {
        east: Amount(c[0]),
        south: Amount(c[1]),
        west: Amount(c[2]),
        north: Amount(c[3]),
    }
}

/// A ruleset's chip rate, with payments in cents where there are some.
pub fn money_dto(m: Money, cents: Option<[i64; 4]>) -> MoneyDto {
    MoneyDto {
        stake: None,
        usd_per_100_chips: Some(f64::from(m.cents_per_100_chips) / 100.0),
        bonus_chips: Some(m.bonus_chips),
        payments: cents.map(money_payments),
    }
}

/// The money of a ruleset (house rules applied) with payments in cents: at
/// its stake when one is set (the core's `settle::stake` takes it first),
/// else at its chip rate; `None` when it has neither.
pub fn money_of(r: &Ruleset, cents: Option<[i64; 4]>) -> Option<MoneyDto> {
    match (r.table().stake, r.money()) {
        (Some(s), _) => Some(MoneyDto {
            stake: Some(s.as_number()),
            usd_per_100_chips: None,
            bonus_chips: None,
            payments: cents.map(money_payments),
        }),
        (None, Some(m)) => Some(money_dto(m, cents)),
        (None, None) => None,
    }
}

/// GET /healthz and /readyz.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct Health {
    #[schema(example = "ok")]
    pub status: String,
    /// Rulesets loaded.
    pub rulesets: usize,
}

#[cfg(test)]
mod tests {
    use super::super::json::parse;
    use super::super::{LedgerRequest, ScoreRequest};
    use super::Amount;
    use std::borrow::Cow;

    fn borrowed(s: &Option<Cow<'_, str>>) -> Option<bool> {
        s.as_ref().map(|c| matches!(c, Cow::Borrowed(_)))
    }

    #[test]
    fn optional_and_listed_strings_borrow_from_the_body() {
        let body = br#"{"ruleset":"hkma","players":["Ann","Ben","Cat","D\u00e4n"],"hands":[{"result":"win","winners":[{"player":"Ann","hand":{"tiles":"77755p","winning_tile":"5p","flowers":["F1"]},"context":{"win_by":"discard","discarder":"Ben","liable":"Cat"}}]},{"result":"false_win","offender":"Ben"}]}"#;
        let r: LedgerRequest = parse(body).unwrap();
        let w = &r.hands[0].winners[0];
        assert_eq!(
            (
                borrowed(&w.hand.as_ref().unwrap().winning_tile),
                borrowed(&w.context.discarder),
                borrowed(&w.context.liable),
                borrowed(&r.hands[1].offender),
            ),
            (Some(true), Some(true), Some(true), Some(true)),
            "case: winning tile, discarder, liable, offender"
        );
        let players: Vec<(bool, &str)> = r
            .players
            .iter()
            .map(|p| (matches!(p, Cow::Borrowed(_)), &**p))
            .collect();
        assert_eq!(
            players,
            [(true, "Ann"), (true, "Ben"), (true, "Cat"), (false, "Dän")],
            "case: players, one with an escape (owned, unescaped)"
        );
        assert!(
            matches!(
                w.hand.as_ref().unwrap().flowers.as_slice(),
                [Cow::Borrowed("F1")]
            ),
            "case: flowers"
        );
    }

    #[test]
    fn a_borrowed_string_of_the_wrong_type_is_pointed_at_as_before() {
        for (case, body, pointer) in [
            (
                "winning tile a number",
                r#"{"ruleset":"hkma","hand":{"tiles":"1m","winning_tile":5},"context":{"win_by":"self_draw","seat_wind":"east","round_wind":"east"}}"#,
                "/hand/winning_tile",
            ),
            (
                "a flower a number",
                r#"{"ruleset":"hkma","hand":{"tiles":"1m","flowers":["F1",2]},"context":{"win_by":"self_draw","seat_wind":"east","round_wind":"east"}}"#,
                "/hand/flowers/1",
            ),
        ] {
            let p = parse::<ScoreRequest>(body.as_bytes())
                .unwrap_err()
                .problem();
            assert_eq!(
                (p.status, p.errors[0].pointer.as_str()),
                (422, pointer),
                "case {case}"
            );
            assert!(
                p.errors[0].message.starts_with("invalid type: integer")
                    && p.errors[0].message.ends_with("expected a string"),
                "case {case}: {}",
                p.errors[0].message
            );
        }
    }

    #[test]
    fn amounts_are_written_exactly_and_as_floats_were_below_2_46_cents() {
        let cases: &[(i64, &str)] = &[
            (0, "0.0"),
            (5, "0.05"),
            (-5, "-0.05"),
            (-50, "-0.5"),
            (160, "1.6"),
            (1234, "12.34"),
            (10_000, "100.0"),
            (-800, "-8.0"),
            ((1 << 53) - 1, "90071992547409.91"),
            (-((1 << 53) - 1), "-90071992547409.91"),
            (i64::MIN, "-92233720368547758.08"),
        ];
        for &(c, want) in cases {
            assert_eq!(Amount(c).text().as_str(), want, "case: {c} cents");
            let json = serde_json::to_string(&Amount(c)).unwrap();
            assert_eq!(json, want, "case: {c} cents through serde");
        }
        // Below 2^46 cents a float's shortest form is the exact amount: the
        // answers of before are byte for byte the same (a spread of amounts).
        let mut c: i64 = 1;
        while c < 1 << 46 {
            for x in [c, c + 1, c + 7, c * 3 + 11, -c - 3] {
                let float = serde_json::to_string(&(x as f64 / 100.0)).unwrap();
                assert_eq!(Amount(x).text().as_str(), float, "case: {x} cents");
            }
            c = c * 5 / 3 + 1;
        }
        assert_eq!(Amount(-160).to_string(), "-1.60", "case: the CLI's form");
        assert_eq!(Amount(0).to_string(), "+0.00", "case: the CLI's zero");
    }
}
