// Runs mahjong-cpp's ExpectedScoreCalculator on hands read from stdin and
// prints its figures as JSON lines, for faan's fixture and side-by-side
// instruction counts (bench/analysis.md).
//
// Each input line: the concealed tiles of a 14-tile hand in mpsz notation,
// then optionally the tiles of declared pungs (one kind each, "5z" = a pung
// of white dragons). Arguments: MODE (off | tegawari | both) and ENTRY
// (13: the 13-tile entry point after each distinct discard, the wall being
// 4 less the copies among the 14 tiles and the melds; 14: the 14-tile entry
// point once; 13k: the 13-tile entry point after each discard that keeps
// the least shanten, the figures faan's `every_discard: false` answers),
// and optionally REPEAT (calls per hand, for callgrind).
// Config: t_min 0, t_max 17, sum 122, no red fives, dora or uradora,
// standard form only.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "mahjong/mahjong.hpp"

using namespace mahjong;

int main(int argc, char **argv)
{
    const std::string mode = argc > 1 ? argv[1] : "tegawari";
    const std::string entry_arg = argc > 2 ? argv[2] : "13";
    const int entry = std::atoi(entry_arg.c_str());
    const bool keeping = entry_arg == "13k";
    const int repeat = argc > 3 ? std::atoi(argv[3]) : 1;

    TableConfig table_config;
    table_config.rule_flags = RuleFlag::Default & ~RuleFlag::RedDora;
    table_config.game_mode = GameMode::Yonma;
    RoundState round;
    round.round_wind = Tile::East;
    round.round_number = 1;
    round.honba = 0;
    TableState table;
    table.kyotaku = 0;

    ExpectedScoreCalculator::Config config;
    config.t_min = 0;
    config.t_max = 17;
    config.sum = 122;
    config.extra = 1;
    config.shanten_type = ShantenFlag::StandardHand;
    config.enable_reddora = false;
    config.enable_uradora = false;
    config.enable_tegawari = mode != "off";
    config.enable_shanten_down = mode == "both";
    config.calc_stats = true;

    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string tiles, pung;
        in >> tiles;
        if (tiles.empty()) {
            continue;
        }
        PlayerState player;
        player.seat_wind = Tile::East;
        player.hand = from_mpsz(tiles);
        MergedCount wall{0};
        for (int i = 0; i < 34; ++i) {
            wall[i] = 4 - player.hand[i];
        }
        while (in >> pung) {
            const int t = from_mpsz(pung) == Hand{} ? Tile::Null : [&] {
                const Hand h = from_mpsz(pung);
                for (int i = 0; i < 34; ++i) {
                    if (h[i]) {
                        return i;
                    }
                }
                return int(Tile::Null);
            }();
            Meld m;
            m.type = MeldType::Pon;
            m.tiles = {t, t, t};
            m.discarded_tile = t;
            m.from = SeatType::Kamicha;
            player.melds.push_back(m);
            wall[t] -= 3;
        }
        if (entry == 1) {
            // The line's tiles are the 13-tile hand itself.
            ExpectedScoreCalculator::Config c = config;
            c.sum = 0;
            for (int i = 0; i < 34; ++i) {
                c.sum += wall[i];
            }
            for (int r = 0; r < repeat; ++r) {
                const auto [stats, searched] =
                    ExpectedScoreCalculator::calc(c, table_config, round, table, player,
                                                  wall);
                if (r + 1 < repeat) {
                    continue;
                }
                const auto &s = stats[0];
                std::printf("{\"hand\":\"%s\",\"shanten\":%d,\"win\":%.17g,"
                            "\"exp\":%.17g,\"searched\":%d}\n",
                            line.c_str(), s.shanten, s.win_prob[0], s.exp_score[0],
                            searched);
            }
            continue;
        }
        if (entry == 14) {
            for (int r = 0; r < repeat; ++r) {
                const auto [stats, searched] =
                    ExpectedScoreCalculator::calc(config, table_config, round, table,
                                                  player, wall);
                if (r + 1 < repeat) {
                    continue;
                }
                for (const auto &s : stats) {
                    std::printf("{\"hand\":\"%s\",\"discard\":\"%s\",\"shanten\":%d,"
                                "\"win\":%.17g,\"exp\":%.17g,\"ready\":%.17g,"
                                "\"searched\":%d}\n",
                                line.c_str(), std::string(Tile::name(s.tile)).c_str(), s.shanten,
                                s.win_prob[0], s.exp_score[0], s.tenpai_prob[0],
                                searched);
                }
            }
            continue;
        }
        const int num_melds = int(player.melds.size());
        int least = 99;
        for (int d = 0; d < 34 && keeping; ++d) {
            if (player.hand[d] == 0) {
                continue;
            }
            Hand h = player.hand;
            --h[d];
            least = std::min(least, std::get<1>(ShantenCalculator::calc(
                                        h, num_melds, ShantenFlag::StandardHand, GameMode::Yonma)));
        }
        for (int d = 0; d < 34; ++d) {
            if (player.hand[d] == 0) {
                continue;
            }
            PlayerState p = player;
            --p.hand[d];
            if (keeping && std::get<1>(ShantenCalculator::calc(p.hand, num_melds,
                                                                ShantenFlag::StandardHand,
                                                                GameMode::Yonma)) > least) {
                continue;
            }
            for (int r = 0; r < repeat; ++r) {
                const auto [stats, searched] =
                    ExpectedScoreCalculator::calc(config, table_config, round, table, p,
                                                  wall);
                if (r + 1 < repeat) {
                    continue;
                }
                const auto &s = stats[0];
                std::printf("{\"hand\":\"%s\",\"discard\":\"%s\",\"shanten\":%d,"
                            "\"win\":%.17g,\"exp\":%.17g,\"ready\":%.17g,"
                            "\"searched\":%d}\n",
                            line.c_str(), to_mpsz(std::vector<int>{d}).c_str(),
                            s.shanten, s.win_prob[0], s.exp_score[0], s.tenpai_prob[0],
                            searched);
            }
        }
    }
    return 0;
}
