// Runs mahjong-cpp's NecessaryTileCalculator (and its ShantenCalculator) on
// the hands read from stdin, REPEAT times each, for side-by-side instruction
// counts with faan (bench/analysis.md): callgrind of a run with REPEAT less
// that of a run with REPEAT = 0, over REPEAT and the hands.
//
// Each input line: concealed tiles in mpsz notation (13 for necessary tiles,
// 14 for shanten). Arguments: WHAT (necessary | necessary_all | shanten |
// shanten_all; `_all` adds seven pairs and thirteen orphans to the standard
// form), REPEAT. The answers are summed into the exit line so that no call
// is optimised away.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "mahjong/mahjong.hpp"

using namespace mahjong;

int main(int argc, char **argv)
{
    const std::string what = argc > 1 ? argv[1] : "necessary";
    const int repeat = argc > 2 ? std::atoi(argv[2]) : 1;
    const bool all = what.size() > 4 && what.substr(what.size() - 4) == "_all";
    const int type = all ? ShantenFlag::All : ShantenFlag::StandardHand;
    const bool necessary = what.rfind("necessary", 0) == 0;

    std::vector<Hand> hands;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty()) {
            hands.push_back(from_mpsz(line));
        }
    }
    // Table loading happens on first use: one call before the counted ones.
    int64_t sum = std::get<1>(ShantenCalculator::calc(hands.at(0), 0, type, GameMode::Yonma));
    for (int r = 0; r < repeat; ++r) {
        for (const Hand &h : hands) {
            if (necessary) {
                const auto [flag, shanten, wait] = NecessaryTileCalculator::calc(h, 0, type, GameMode::Yonma);
                sum += shanten + wait;
            }
            else {
                sum += std::get<1>(ShantenCalculator::calc(h, 0, type, GameMode::Yonma));
            }
        }
    }
    std::printf("%lld\n", static_cast<long long>(sum));
    return 0;
}
