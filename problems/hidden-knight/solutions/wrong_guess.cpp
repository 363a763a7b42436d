// Wrong on purpose: four questions, each the one that leaves the fewest
// possible squares in the worst case, then a guess at the first square still
// possible. Four questions are not always enough, so the guess is sometimes
// wrong.
#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

const int SIDE = 50;
const int SQUARES = SIDE * SIDE;
const int QUESTIONS = 4;

std::vector<std::vector<int>> dist;

std::vector<int> bfs(int from) {
    const int dx[8] = {1, 2, 2, 1, -1, -2, -2, -1};
    const int dy[8] = {2, 1, -1, -2, -2, -1, 1, 2};
    std::vector<int> d(SQUARES, -1);
    std::vector<int> queue = {from};
    d[from] = 0;
    for (size_t head = 0; head < queue.size(); head++) {
        int here = queue[head];
        for (int m = 0; m < 8; m++) {
            int x = here / SIDE + dx[m], y = here % SIDE + dy[m];
            if (x < 0 || y < 0 || x >= SIDE || y >= SIDE || d[x * SIDE + y] >= 0) continue;
            d[x * SIDE + y] = d[here] + 1;
            queue.push_back(x * SIDE + y);
        }
    }
    return d;
}

}  // namespace

int main() {
    for (int s = 0; s < SQUARES; s++) dist.push_back(bfs(s));
    std::vector<int> possible;
    for (int s = 0; s < SQUARES; s++) possible.push_back(s);
    for (int asked = 0; asked < QUESTIONS && possible.size() > 1; asked++) {
        int best = 0;
        size_t best_worst = possible.size() + 1;
        for (int q = 0; q < SQUARES; q++) {
            std::vector<size_t> count(64, 0);
            for (int s : possible) count[dist[q][s]]++;
            size_t worst = *std::max_element(count.begin(), count.end());
            if (worst < best_worst) {
                best_worst = worst;
                best = q;
            }
        }
        std::printf("? %d %d\n", best / SIDE, best % SIDE);
        std::fflush(stdout);
        int reply;
        if (std::scanf("%d", &reply) != 1) return 0;
        std::vector<int> kept;
        for (int s : possible)
            if (dist[best][s] == reply) kept.push_back(s);
        possible.swap(kept);
    }
    std::printf("! %d %d\n", possible[0] / SIDE, possible[0] % SIDE);
    std::fflush(stdout);
    return 0;
}
