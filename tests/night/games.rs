//! A night of several games: new seats and a new first dealer, balances,
//! statistics and played-hand numbers across the games, the start
//! dealer's round, and the night as CSV in English and in Chinese.

use super::*;

#[test]
fn the_csv_of_a_worked_night_keeps_its_chinese_names() {
    let s = service();
    let body = serde_json::to_vec(&night("hkma", json!({"stake": 0.5}), ten_hands())).unwrap();
    let csv = s
        .ledger_csv(&body, faan::service::wire::render::Lang::En)
        .expect("the night as CSV");
    assert!(
        csv.starts_with(b"\xEF\xBB\xBF"),
        "a UTF-8 byte order mark first"
    );
    let text = std::str::from_utf8(&csv[3..]).expect("UTF-8");
    let rows: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(
        rows.len(),
        17,
        "a header, ten hands, the totals, the settling up's heading and three transfers, and the last CRLF: {text}"
    );
    assert_eq!(
        rows[0],
        "hand,game,round,dealer,result,winners,win_by,discarder,faan,阿美,家豪,Grandma,\"Ka-ho, Jr.\",阿美 money,家豪 money,Grandma money,\"Ka-ho, Jr. money\""
    );
    // The rows worked above, numbered from 1; money is the points at HK$0.50.
    assert_eq!(
        rows[1],
        "1,1,east,阿美,win,家豪,discard,Grandma,5,0,96,-96,0,0.0,48.0,-48.0,0.0"
    );
    assert_eq!(rows[2], "2,1,east,家豪,draw,,,,,0,0,0,0,0.0,0.0,0.0,0.0");
    assert_eq!(
        rows[4],
        "4,1,east,家豪,false win,\"Ka-ho, Jr.\",,,,48,48,48,-144,24.0,24.0,24.0,-72.0"
    );
    assert_eq!(
        rows[6],
        "6,1,east,Grandma,win,\"阿美 + Ka-ho, Jr.\",discard,家豪,4 + 3,64,-96,0,32,32.0,-48.0,0.0,16.0"
    );
    assert_eq!(
        rows[10],
        "10,1,south,阿美,win,家豪,discard,Grandma,7,0,192,-192,0,0.0,96.0,-96.0,0.0"
    );
    assert_eq!(
        rows[11],
        "total,,,,,,,,,-384,224,192,-32,-192.0,112.0,96.0,-16.0"
    );
    // The settling up in money: -192.0, 112.0, 96.0, -16.0 in three payments.
    assert_eq!(rows[12], "settle up,from,to,amount,,,,,,,,,,,,,");
    assert_eq!(rows[13], ",阿美,家豪,112.0,,,,,,,,,,,,,");
    assert_eq!(rows[14], ",阿美,Grandma,80.0,,,,,,,,,,,,,");
    assert_eq!(rows[15], ",\"Ka-ho, Jr.\",Grandma,16.0,,,,,,,,,,,,,");
    assert_eq!(rows[16], "");
    // Read back as a spreadsheet reads RFC 4180: every row has seventeen fields.
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    assert_eq!(header.get(12), Some("Ka-ho, Jr."));
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 15);
    assert!(records.iter().all(|r| r.len() == 17));
    // A change of rules says what it changed in words, never JSON; it is
    // not numbered, and the hand after it is the second.
    let mut hands = ten_hands();
    hands.insert(
        1,
        json!({"result": "rules", "house_rules": {"stake": 1, "false_win": "limit"}}),
    );
    let body = serde_json::to_vec(&night("hkma", json!({"stake": 0.5}), hands)).unwrap();
    let csv = s
        .ledger_csv(&body, faan::service::wire::render::Lang::En)
        .unwrap();
    let text = std::str::from_utf8(&csv[3..]).unwrap();
    let rows: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(
        rows[2],
        ",1,east,家豪,\"rules: false_win limit, stake 1\",,,,,,,,,,,,"
    );
    assert!(rows[3].starts_with("2,1,east,家豪,draw,"), "{}", rows[3]);
}

/// Ann, Ben, Cat, Dan at hkma, the deal passing on a draw. Game 1: fifteen
/// draws (Ann, Ben, Cat, Dan deal each round in turn), then in the north
/// round with Dan dealing, Cat wins 3 faan on Dan's discard (B 8, Dan pays
/// 4B = 32): the deal passes a sixteenth time and the game is complete.
fn a_first_game() -> Vec<Value> {
    let mut hands = vec![json!({"result": "draw"}); 15];
    hands.push(win(
        "Cat",
        json!({"faan": 3}),
        json!({"win_by": "discard", "discarder": "Dan"}),
    ));
    hands
}

/// Points by player for Ann, Ben, Cat, Dan.
fn abcd(v: &Value) -> [i64; 4] {
    ["Ann", "Ben", "Cat", "Dan"].map(|p| v[p].as_i64().unwrap())
}

fn four(names: [&str; 4]) -> Value {
    json!({"ruleset": "hkma", "house_rules": {"dealer_keeps_on_draw": false},
        "players": names, "hands": []})
}

#[test]
fn a_night_of_two_games_keeps_its_balances_and_numbers_across_them() {
    let s = service();
    let mut body = four(["Ann", "Ben", "Cat", "Dan"]);
    let mut hands = a_first_game();
    // 16: game 2, seated Ben, Ann, Dan, Cat; Dan deals first.
    hands.push(
        json!({"result": "new_game", "players": ["Ben", "Ann", "Dan", "Cat"], "dealer": "Dan"}),
    );
    // 17: Ben self-draws 4 faan: B 16, 2B = 32 from each.
    hands.push(win(
        "Ben",
        json!({"faan": 4}),
        json!({"win_by": "self_draw"}),
    ));
    // 18: a draw; the deal passed from Dan to Cat at 17, now to Ben.
    hands.push(json!({"result": "draw"}));
    body["hands"] = Value::Array(hands);
    let v = ok(&s, "/v1/ledger", &body, "two games");
    let h = &v["hands"];
    // Game 1's last hand: the north round, Dan dealing, number 16.
    assert_eq!(
        (
            &h[15]["number"],
            &h[15]["game"],
            &h[15]["round_wind"],
            &h[15]["dealer"]
        ),
        (&json!(16), &json!(1), &json!("north"), &json!("Dan"))
    );
    // The new game's row: no number, game 2, Dan east, then Cat, Ben, Ann
    // in the new order; no deltas, the balances as game 1 left them.
    assert_eq!(
        h[16],
        json!({"index": 16, "number": null, "game": 2, "round_wind": "east", "dealer": "Dan",
            "dealer_streak": 0,
            "seats": {"Ann": "north", "Ben": "west", "Cat": "south", "Dan": "east"},
            "result": "new_game",
            "balances": {"Ann": 0, "Ben": 0, "Cat": 32, "Dan": -32}})
    );
    // Ben, west in game 2, self-draws: numbered 17 (the new game is not a
    // played hand), 32 from each; the balances run on from game 1.
    assert_eq!(
        (
            &h[17]["number"],
            &h[17]["game"],
            &h[17]["winners"][0]["seat"]
        ),
        (&json!(17), &json!(2), &json!("west"))
    );
    assert_eq!(abcd(&h[17]["deltas"]), [-32, 96, -32, -32]);
    assert_eq!(abcd(&h[17]["balances"]), [-32, 96, 0, -64]);
    // Dan did not win: the deal passed to Cat (south of Dan in the new order).
    assert_eq!(
        (&h[18]["dealer"], &h[18]["number"]),
        (&json!("Cat"), &json!(18))
    );
    assert_eq!(
        h[18]["seats"],
        json!({"Ann": "west", "Ben": "south", "Cat": "east", "Dan": "north"})
    );
    // Then to Ben: the east round of game 2 goes on.
    assert_eq!(
        v["next"],
        json!({"round_wind": "east", "dealer": "Ben", "dealer_streak": 0, "complete": false})
    );
    // The night's balances and statistics, across both games.
    assert_eq!(abcd(&v["balances"]), [-32, 96, 0, -64]);
    assert_eq!(v["stats"][1]["self_draws"], 1);
    assert_eq!(v["stats"][1]["biggest"], json!({"hand": 17, "faan": 4}));
    assert_eq!(v["stats"][2]["biggest"], json!({"hand": 15, "faan": 3}));
    assert_eq!(v["stats"][3]["dealt_in"], 1);
    // A new game with nothing named: the seats stay, the east seat (Ann) deals.
    let mut plain = four(["Ann", "Ben", "Cat", "Dan"]);
    let mut hands = a_first_game();
    hands.push(json!({"result": "new_game"}));
    hands.push(json!({"result": "draw"}));
    plain["hands"] = Value::Array(hands);
    let v = ok(&s, "/v1/ledger", &plain, "a new game, seats kept");
    assert_eq!(
        (&v["hands"][16]["dealer"], &v["hands"][16]["seats"]),
        (
            &json!("Ann"),
            &json!({"Ann": "east", "Ben": "south", "Cat": "west", "Dan": "north"})
        )
    );
    assert_eq!(
        (
            &v["hands"][17]["number"],
            &v["hands"][17]["game"],
            &v["next"]["dealer"]
        ),
        (&json!(17), &json!(2), &json!("Ben"))
    );
    // A played hand after the game without a new game is still match_complete.
    let mut late = four(["Ann", "Ben", "Cat", "Dan"]);
    let mut hands = a_first_game();
    hands.push(json!({"result": "draw"}));
    late["hands"] = Value::Array(hands);
    assert_eq!(
        refused(&s, "/v1/ledger", &late, "a draw after the game"),
        ("/hands/16".into(), "match_complete".into())
    );
    // A change of rules may come between games; it is not numbered.
    let mut between = four(["Ann", "Ben", "Cat", "Dan"]);
    let mut hands = a_first_game();
    hands.push(json!({"result": "rules", "house_rules": {"stake": 2}}));
    hands.push(json!({"result": "new_game"}));
    hands.push(win(
        "Ben",
        json!({"faan": 4}),
        json!({"win_by": "self_draw"}),
    ));
    between["hands"] = Value::Array(hands);
    let v = ok(&s, "/v1/ledger", &between, "rules between games");
    assert_eq!(
        (&v["hands"][16]["number"], &v["hands"][16]["game"]),
        (&json!(null), &json!(1))
    );
    assert_eq!(
        (&v["hands"][18]["number"], &v["hands"][18]["game"]),
        (&json!(17), &json!(2))
    );
    // At $2 a point: Ben's 96 is $192.
    assert_eq!(v["hands"][18]["money"]["Ben"], json!(192.0));
}

/// `start` names the game's first dealer: the east round ends when the
/// deal comes back to that player, four passes on, whoever it is.
#[test]
fn the_round_wind_moves_after_four_passes_from_the_start_dealer() {
    let s = service();
    let mut body = four(["Ann", "Ben", "Cat", "Dan"]);
    body["start"] = json!({"dealer": "Cat"});
    body["hands"] = Value::Array(vec![json!({"result": "draw"}); 16]);
    let v = ok(&s, "/v1/ledger", &body, "Cat deals first");
    let deal = |i: usize| {
        (
            v["hands"][i]["round_wind"].as_str().unwrap().to_string(),
            v["hands"][i]["dealer"].as_str().unwrap().to_string(),
        )
    };
    // Cat, Dan, Ann, Ben deal the east round; Cat again opens the south.
    assert_eq!(deal(0), ("east".into(), "Cat".into()));
    assert_eq!(deal(2), ("east".into(), "Ann".into()));
    assert_eq!(deal(3), ("east".into(), "Ben".into()));
    assert_eq!(deal(4), ("south".into(), "Cat".into()));
    assert_eq!(deal(15), ("north".into(), "Ben".into()));
    assert_eq!(v["next"]["complete"], json!(true));
    assert_eq!(v["hands"][0]["seats"]["Cat"], json!("east"));
    assert_eq!(v["hands"][0]["seats"]["Ann"], json!("west"));
}

fn csv_rows(csv: &[u8]) -> Vec<String> {
    assert!(
        csv.starts_with(b"\xEF\xBB\xBF"),
        "a UTF-8 byte order mark first"
    );
    std::str::from_utf8(&csv[3..])
        .expect("UTF-8")
        .split("\r\n")
        .map(String::from)
        .collect()
}

#[test]
fn a_two_game_night_as_csv_in_english_and_in_chinese() {
    use faan::service::wire::render::Lang;
    let s = service();
    let mut body = four(["Ann", "Ben", "Cat", "Dan"]);
    let mut hands = a_first_game();
    hands.push(json!({"result": "rules", "house_rules": {"stake": 2}}));
    hands.push(
        json!({"result": "new_game", "players": ["Ben", "Ann", "Dan", "Cat"], "dealer": "Dan"}),
    );
    hands.push(win(
        "Ben",
        json!({"faan": 4}),
        json!({"win_by": "self_draw"}),
    ));
    body["hands"] = Value::Array(hands);
    let bytes = serde_json::to_vec(&body).unwrap();
    let rows = csv_rows(&s.ledger_csv(&bytes, Lang::En).unwrap());
    assert_eq!(
        rows[0],
        "hand,game,round,dealer,result,winners,win_by,discarder,faan,Ann,Ben,Cat,Dan,Ann money,Ben money,Cat money,Dan money"
    );
    // Before the stake there is no money in a row; the totals have it.
    assert_eq!(rows[1], "1,1,east,Ann,draw,,,,,0,0,0,0,,,,");
    assert_eq!(
        rows[16],
        "16,1,north,Dan,win,Cat,discard,Dan,3,0,0,32,-32,,,,"
    );
    // The game is over: the deal stands where it passed, to Ann.
    assert_eq!(rows[17], ",1,north,Ann,rules: stake 2,,,,,,,,,,,,");
    assert_eq!(
        rows[18],
        ",2,east,Dan,\"new game: Dan, Cat, Ben, Ann\",,,,,,,,,,,,"
    );
    assert_eq!(
        rows[19],
        "17,2,east,Dan,win,Ben,self draw,,4,-32,96,-32,-32,-64.0,192.0,-64.0,-64.0"
    );
    // The totals: the points of the night; its money since the stake.
    assert_eq!(
        rows[20],
        "total,,,,,,,,,-32,96,0,-64,-64.0,192.0,-64.0,-64.0"
    );
    // Settling up in money: Ben is owed 64 by each of the others.
    assert_eq!(rows[21], "settle up,from,to,amount,,,,,,,,,,,,,");
    let mut transfers = rows[22..25].to_vec();
    transfers.sort();
    assert_eq!(
        transfers,
        [
            ",Ann,Ben,64.0,,,,,,,,,,,,,",
            ",Cat,Ben,64.0,,,,,,,,,,,,,",
            ",Dan,Ben,64.0,,,,,,,,,,,,,"
        ]
    );
    assert_eq!(rows[25], "");
    // In Chinese: the header and the words, the names and numbers as they are.
    let rows = csv_rows(&s.ledger_csv(&bytes, Lang::Zh).unwrap());
    assert_eq!(
        rows[0],
        "局,場,圈,莊家,結果,食糊者,食糊方式,出銃者,番,Ann,Ben,Cat,Dan,Ann 銀碼,Ben 銀碼,Cat 銀碼,Dan 銀碼"
    );
    assert_eq!(rows[1], "1,1,東,Ann,流局,,,,,0,0,0,0,,,,");
    assert_eq!(rows[16], "16,1,北,Dan,食糊,Cat,出銃,Dan,3,0,0,32,-32,,,,");
    assert_eq!(rows[17], ",1,北,Ann,改規則：stake 2,,,,,,,,,,,,");
    assert_eq!(rows[18], ",2,東,Dan,新一場：Dan、Cat、Ben、Ann,,,,,,,,,,,,");
    assert_eq!(
        rows[20],
        "累計,,,,,,,,,-32,96,0,-64,-64.0,192.0,-64.0,-64.0"
    );
    assert_eq!(rows[21], "找數,付,收,金額,,,,,,,,,,,,,");
    // Without a stake the settling up is in points: Dan pays Ben 64, Ann 32.
    body["hands"].as_array_mut().unwrap().remove(16);
    let bytes = serde_json::to_vec(&body).unwrap();
    let rows = csv_rows(&s.ledger_csv(&bytes, Lang::En).unwrap());
    assert_eq!(rows[19], "total,,,,,,,,,-32,96,0,-64");
    let mut transfers = rows[21..23].to_vec();
    transfers.sort();
    assert_eq!(transfers, [",Ann,Ben,32,,,,,,,,,", ",Dan,Ben,64,,,,,,,,,"]);
}

#[test]
fn accept_language_picks_the_csv_words() {
    use faan::service::wire::render::Lang;
    for (header, want) in [
        (None, Lang::En),
        (Some("zh-HK"), Lang::Zh),
        (Some("zh-TW,en;q=0.5"), Lang::Zh),
        (Some("zh"), Lang::Zh),
        (Some("en-GB,zh-HK;q=0.9"), Lang::En),
        (Some("fr;q=0.4, zh-hk;q=0.8"), Lang::Zh),
        (Some("zh-CN"), Lang::En),
        (Some("zh-HK;q=0"), Lang::En),
        (Some("*"), Lang::En),
    ] {
        assert_eq!(Lang::from_accept_language(header), want, "case {header:?}");
    }
}
