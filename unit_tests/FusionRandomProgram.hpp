#pragma once
// Random fusion windows: launches with declared accesses over shifted (and, when asked, strided)
// windows of a few allocations, run unfused and fused and compared bit for bit.  TestFusion draws
// them from seeds, fuzz/FuzzFusionWindow from the fuzzer's bytes: both through RandomSource.
#include <Kokkos_Fusion.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace Kokkos::Test {

// The generator's one source of choices: a seeded mt19937_64, or a byte string read front to back
// (one byte a choice, zeros once it runs out, so that every byte string is a program and a shorter
// one a smaller program).
class RandomSource {
 public:
  explicit RandomSource(std::uint64_t seed) : rng_(seed) {}
  RandomSource(const std::uint8_t* data, std::size_t size) : bytes_(data), left_(size), from_bytes_(true) {}

  // A choice in [0, k), k >= 1.
  int pick(int k) {
    if (!from_bytes_) return static_cast<int>(rng_() % static_cast<std::uint64_t>(k));
    if (left_ == 0) return 0;
    --left_;
    return static_cast<int>(*bytes_++ % static_cast<unsigned>(k));
  }
  bool exhausted() const { return from_bytes_ && left_ == 0; }

 private:
  std::mt19937_64 rng_;
  const std::uint8_t* bytes_ = nullptr;
  std::size_t left_ = 0;
  bool from_bytes_ = false;
};

namespace RandomFusion {

namespace KE = Kokkos::Experimental;

using Vec = Kokkos::View<double*, Kokkos::LayoutStride, Kokkos::HostSpace>;
// An allocation of `lanes` interleaved arrays: lane c of row i is element i * lanes + c.
using Grid = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;

// Elements [shift, shift + n) of lane `lane`: a window with an offset and a stride of grid.extent(1).
inline Vec window(const Grid& grid, std::int64_t shift, std::int64_t n, int lane = 0) {
  return Kokkos::subview(grid, Kokkos::pair<std::int64_t, std::int64_t>(shift, shift + n), lane);
}

// One element-wise launch of a random program: out(i) = f(in...) or a reduction of in0.
struct Op {
  int kind = 0;  // 0: out = a*in0 + b ; 1: out = in0*in1 + a ; 2: out = out*a + in0 ; 3: out = in0 - in1*in2
                 // 4: sum += in0*a (reduction) ; 5: count() += (in0 > 0), atomically (reduces a rank-0 View)
                 // 6: out = in0 + count() ; 7: as 0, but as a two-dimensional launch (fuses by
                 // its first index) ; 8: as 0, but as a team launch (runs alone)
  Vec out, in0, in1, in2;
  Kokkos::View<std::int64_t, Kokkos::HostSpace> count;
  double a = 1, b = 0;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    switch (kind) {
      case 0:
      case 7:
      case 8: out(i) = a * in0(i) + b; break;
      case 1: out(i) = in0(i) * in1(i) + a; break;
      case 2: out(i) = out(i) * a + in0(i); break;
      case 3: out(i) = in0(i) - in1(i) * in2(i); break;
      case 5:
        if (in0(i) > 0) Kokkos::atomic_add(&count(), std::int64_t(1));
        break;
      case 6: out(i) = in0(i) + double(count()); break;
      default: break;
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, double& sum) const { sum += in0(i) * a; }
  // Its Views, so that fusion may point those into an eliminated temporary at a chunk buffer.
  KOKKOS_FUNCTION auto impl_fusion_members() { return std::tie(out, in0, in1, in2); }
};
struct Op2D {
  Op op;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t) const { op(i); }
};
struct OpTeam {
  Op op;
  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    op(member.league_rank());
  }
};

// Where a launch's View lies: lane `lane` of allocation `array` from row `shift` on.
struct Place {
  int array = 0, shift = 0, lane = 0;
};

struct Step {
  int kind = 0;
  double a = 1, b = 0;
  std::int64_t begin = 0, end = 0;
  Place out, in0, in1, in2;
};

// Data: allocations of n + 8 rows of `lanes` doubles; a View is one lane's shifted window of
// n - 0..4 elements.  Allocations from arrays.size() on are temporaries: run_program creates them
// inside the window and drops them before it flushes, so that fusion may eliminate them.
struct Program {
  std::vector<Grid> arrays;
  int temporaries = 0;
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> bins;  // bins(0) is the counter of kinds 5, 6
  std::vector<Step> steps;
};

// What the generator may use beyond one-lane windows of allocations made before the window.
struct Shape {
  std::int64_t n = 37;
  int lanes = 1;            // > 1: windows are strided, and launches may touch different lanes of one allocation
  int max_temporaries = 0;  // > 0: up to this many temporaries
  int max_launches = 40;
};

inline Program make_program(RandomSource& rng, const Shape& shape) {
  auto pick = [&](int k) { return rng.pick(k); };
  const std::int64_t n = shape.n;
  Program p;
  const int arrays = 2 + pick(3);
  for (int k = 0; k < arrays; ++k) p.arrays.emplace_back(std::string("a").append(std::to_string(k)), n + 8, shape.lanes);
  if (shape.max_temporaries > 0) p.temporaries = pick(shape.max_temporaries + 1);
  const int allocations = arrays + p.temporaries;
  p.bins = Kokkos::View<std::int64_t*, Kokkos::HostSpace>("bins", 1);
  const int launches = 1 + pick(shape.max_launches);
  for (int l = 0; l < launches; ++l) {
    Step s;
    // Mostly one domain; sometimes a shorter one (a launch-domain barrier).
    std::int64_t len = pick(6) == 0 ? n - 1 - pick(3) : n;
    if (len < 0) len = n;
    s.begin = 0;
    s.end = len;
    s.kind = pick(15);
    if (s.kind > 8) s.kind = pick(4);  // element-wise bodies dominate
    s.a = 0.5 + pick(7) * 0.25;
    s.b = pick(5) - 2.0;
    auto lane = [&]() { return shape.lanes == 1 ? 0 : pick(shape.lanes); };
    // A temporary is always seen whole from its start: one geometry, which elimination needs.
    auto place = [&](int array, int shift, int in_lane) {
      return array < arrays ? Place{array, shift, in_lane} : Place{array, 0, 0};
    };
    // The written partition's allocation is touched by no other partition in the same launch
    // (that would be a race even unfused), except through another lane, which shares no element.
    // (Each choice in a statement of its own: the order of the draws is part of a seed's program.)
    auto somewhere = [&](int array) {
      const int shift = pick(5);
      return place(array, shift, lane());
    };
    const Place out = somewhere(pick(allocations));
    auto input = [&]() {
      const int array = pick(allocations);
      if (array != out.array) return somewhere(array);
      const int in_lane = lane();
      if (in_lane == out.lane) return out;
      return place(array, pick(5), in_lane);
    };
    s.in0 = input();
    s.in1 = input();
    s.in2 = input();
    s.out = out;
    p.steps.push_back(s);
  }
  return p;
}

// The launch of `s` over `grids` (the program's allocations, then its temporaries).
inline Op bound_op(const Step& s, const std::vector<Grid>& grids, const Kokkos::View<std::int64_t*, Kokkos::HostSpace>& bins) {
  const std::int64_t len = s.end - s.begin;
  auto view_of = [&](const Place& w) { return window(grids[w.array], w.shift, len, w.lane); };
  Op op;
  op.kind = s.kind;
  op.a = s.a;
  op.b = s.b;
  // Only the Views the kind's body touches are bound (and declared, accesses_of): the capture
  // check (KOKKOS_FUSION_CHECK, on in debug builds) stops a launch capturing an undeclared View.
  op.in0 = view_of(s.in0);
  if (op.kind == 1 || op.kind == 3) op.in1 = view_of(s.in1);
  if (op.kind == 3) op.in2 = view_of(s.in2);
  if (op.kind != 4 && op.kind != 5) op.out = view_of(s.out);
  if (op.kind == 5 || op.kind == 6) op.count = Kokkos::subview(bins, 0);
  return op;
}

// What the launch of `op` declares.
inline std::vector<KE::DataAccess> accesses_of(const Op& op) {
  std::vector<KE::DataAccess> accesses;
  accesses.push_back(KE::reads(op.in0));
  if (op.kind == 1 || op.kind == 3) accesses.push_back(KE::reads(op.in1));
  if (op.kind == 3) accesses.push_back(KE::reads(op.in2));
  if (op.kind <= 1 || op.kind == 3 || op.kind >= 6) accesses.push_back(KE::writes(op.out));
  if (op.kind == 2) accesses.push_back(KE::read_writes(op.out));
  if (op.kind == 5) accesses.push_back(KE::reduces(op.count));
  if (op.kind == 6) accesses.push_back(KE::reads(op.count));
  return accesses;
}

template <class Space, std::size_t... K>
void launch(const Op& op, std::int64_t begin, std::int64_t end, const std::vector<KE::DataAccess>& accesses,
            std::vector<double>& sums, std::index_sequence<K...>) {
  Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>> policy(begin, end);
  if (op.kind == 4) {
    double sum = 0;
    Kokkos::parallel_reduce("reduce", KE::with_accesses(policy, accesses[K]...), op, sum);
    sums.push_back(sum);
  } else if (op.kind == 7) {
    Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>> md({begin, 0}, {end, 1});
    Kokkos::parallel_for("op2d", KE::with_accesses(md, accesses[K]...), Op2D{op});
  } else if (op.kind == 8) {
    Kokkos::TeamPolicy<Space> teams(static_cast<int>(end), 1);
    Kokkos::parallel_for("op_team", KE::with_accesses(teams, accesses[K]...), OpTeam{op});
  } else {
    Kokkos::parallel_for("op", KE::with_accesses(policy, accesses[K]...), op);
  }
}

// Runs the program from its initial data in one FusionScope: fused or not as set_fusion_enabled says.
template <class Space>
void run_program(const Program& p, std::vector<double>& sums) {
  for (std::size_t k = 0; k < p.arrays.size(); ++k) {
    auto a = p.arrays[k];
    const std::size_t lanes = a.extent(1);
    for (std::size_t i = 0; i < a.extent(0); ++i) {
      for (std::size_t c = 0; c < lanes; ++c) a(i, c) = std::sin(double(i * lanes + c) * (k + 1)) + 0.1 * double(k);
    }
  }
  p.bins(0) = 0;
  sums.clear();
  KE::FusionScope scope;
  std::vector<Grid> grids = p.arrays;
  for (int t = 0; t < p.temporaries; ++t) {
    const Grid& shape = p.arrays.front();
    grids.emplace_back(std::string("t").append(std::to_string(t)), shape.extent(0), shape.extent(1));
  }
  for (const Step& s : p.steps) {
    const Op op = bound_op(s, grids, p.bins);
    const std::vector<KE::DataAccess> accesses = accesses_of(op);
    switch (accesses.size()) {
      case 1: launch<Space>(op, s.begin, s.end, accesses, sums, std::make_index_sequence<1>{}); break;
      case 2: launch<Space>(op, s.begin, s.end, accesses, sums, std::make_index_sequence<2>{}); break;
      case 3: launch<Space>(op, s.begin, s.end, accesses, sums, std::make_index_sequence<3>{}); break;
      default: launch<Space>(op, s.begin, s.end, accesses, sums, std::make_index_sequence<4>{}); break;
    }
  }
}  // the temporaries' last handles go before the scope flushes

// The program's observable results: every allocation, the counter, the reductions' values.
struct Results {
  std::vector<std::vector<double>> arrays;
  std::int64_t count = 0;
  std::vector<double> sums;
};

template <class Space>
Results run_results(const Program& p) {
  Results r;
  run_program<Space>(p, r.sums);
  for (const Grid& a : p.arrays) r.arrays.emplace_back(a.data(), a.data() + a.size());
  r.count = p.bins(0);
  return r;
}

// Where `fused` differs from `plain` in any bit (the first difference), or "" where it does not.
inline std::string first_difference(const Results& fused, const Results& plain) {
  std::ostringstream out;
  auto same = [](double x, double y) { return std::memcmp(&x, &y, sizeof(double)) == 0; };
  if (fused.sums.size() != plain.sums.size()) {
    out << fused.sums.size() << " reductions fused, " << plain.sums.size() << " unfused";
    return out.str();
  }
  for (std::size_t k = 0; k < fused.sums.size(); ++k) {
    if (!same(fused.sums[k], plain.sums[k])) {
      out << "reduction " << k << ": " << fused.sums[k] << " fused vs " << plain.sums[k] << " unfused";
      return out.str();
    }
  }
  if (fused.count != plain.count) {
    out << "counter: " << fused.count << " fused vs " << plain.count << " unfused";
    return out.str();
  }
  for (std::size_t a = 0; a < fused.arrays.size(); ++a) {
    for (std::size_t i = 0; i < fused.arrays[a].size(); ++i) {
      if (!same(fused.arrays[a][i], plain.arrays[a][i])) {
        out << "array " << a << " element " << i << ": " << fused.arrays[a][i] << " fused vs " << plain.arrays[a][i]
            << " unfused";
        return out.str();
      }
    }
  }
  return "";
}

// Runs `p` unfused once and fused `fused_repeats` times (a repeated program reuses its memoized
// plan); the first fused run that differs from the unfused one, described, or "".
template <class Space>
std::string fused_differs_from_unfused(const Program& p, int fused_repeats = 1) {
  const bool was_enabled = KE::fusion_enabled();
  KE::set_fusion_enabled(false);
  const Results plain = run_results<Space>(p);
  KE::set_fusion_enabled(true);
  std::string diff;
  for (int r = 0; r < fused_repeats && diff.empty(); ++r) {
    diff = first_difference(run_results<Space>(p), plain);
    if (!diff.empty()) diff = "repeat " + std::to_string(r) + ", " + diff;
  }
  KE::set_fusion_enabled(was_enabled);
  return diff;
}

}  // namespace RandomFusion
}  // namespace Kokkos::Test
