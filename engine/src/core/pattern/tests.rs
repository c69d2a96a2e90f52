use super::*;

#[test]
fn terminal_and_simple_masks() {
    for i in 0..27 {
        let t = Tile::from_index(i).unwrap();
        assert_eq!(TERMINALS >> i & 1 == 1, t.is_terminal(), "{t}");
        assert_eq!(SIMPLES >> i & 1 == 1, !t.is_terminal(), "{t}");
    }
    assert_eq!((TERMINALS | SIMPLES) >> 27, 0, "no honours");
}

#[test]
fn ids_round_trip() {
    for &id in PatternId::ALL {
        assert_eq!(id.as_str().parse::<PatternId>(), Ok(id), "{id}");
    }
    assert!("seven_sisters".parse::<PatternId>().is_err());
}

/// The table is indexed by id, fits a [`PatternSet`], names every
/// pattern once in each language, and every condition belongs somewhere.
#[test]
fn the_table_is_whole() {
    assert_eq!(PATTERNS.len(), PatternId::ALL.len());
    assert!(
        PATTERN_COUNT <= PatternSet::BITS as usize,
        "a PatternSet holds every id"
    );
    for (i, p) in PATTERNS.iter().enumerate() {
        assert_eq!(p.id.index(), i, "{}: entry {i}", p.key);
        assert!(
            p.name.is_ascii() && !p.name.is_empty(),
            "{}: name {:?}",
            p.key,
            p.name
        );
        assert!(
            p.name_zh
                .chars()
                .all(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{}: name_zh {:?} is Chinese characters only",
            p.key,
            p.name_zh
        );
        for q in &PATTERNS[..i] {
            assert_ne!(
                p.name, q.name,
                "{} and {}: one English name each",
                p.key, q.key
            );
            assert_ne!(
                p.name_zh, q.name_zh,
                "{} and {}: one Chinese name each",
                p.key, q.key
            );
        }
        assert_eq!(
            p.house_contains & p.id.bit(),
            0,
            "{} contains itself",
            p.key
        );
    }
    for &c in Condition::ALL {
        assert!(
            PATTERNS.iter().any(|p| p.conditions.contains(&c)),
            "{} applies to no pattern",
            c.key()
        );
        assert_eq!(Condition::from_key(c.key()), Some(c), "{}", c.key());
        assert_eq!(
            Conditions::default().get(c),
            c.default_value(),
            "{}",
            c.key()
        );
        let mut flipped = Conditions::default();
        flipped.set(c, !c.default_value());
        for &d in Condition::ALL {
            assert_eq!(
                flipped.get(d),
                d.default_value() != (c == d),
                "setting {} leaves {} alone",
                c.key(),
                d.key()
            );
        }
    }
}
