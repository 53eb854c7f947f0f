// Kokkos Tools callbacks installed in-process: every hook the library calls (launches, fences,
// deep copies, allocations) reaches its callback with Kokkos' arguments, and nothing is called
// when no callback is installed.
#include "TestCommon.hpp"

#include <Kokkos_Tools.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

// Heap allocations made by the calling thread while counting is on: the hooks must not add any
// when no tool listens.  ThreadSanitizer's runtime owns operator new, so that build leaves the
// count (and its test) out.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TOOLS_TEST_NO_ALLOCATION_COUNT
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define TOOLS_TEST_NO_ALLOCATION_COUNT
#endif
// nvcc declares the global operator new for device code too, so a replacement in a CUDA
// translation unit would be compiled for the device, where it cannot throw; the host builds
// keep the check.
#if defined(__CUDACC__)
#define TOOLS_TEST_NO_ALLOCATION_COUNT
#endif

#if !defined(TOOLS_TEST_NO_ALLOCATION_COUNT)
namespace {
thread_local bool t_count_allocations = false;
thread_local long t_allocations = 0;
}  // namespace

void* operator new(std::size_t bytes) {
  if (t_count_allocations) ++t_allocations;
  if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) return p;
  throw std::bad_alloc();
}
// g++ cannot see that this operator new is malloc-based.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace {

namespace KTE = Kokkos::Tools::Experimental;

struct KernelEvent {
  std::string kind;  // "begin for", "end reduce", ...
  std::string name;
  uint32_t device_id = 0;
  uint64_t kernel_id = 0;
};
std::vector<KernelEvent> g_kernels;
uint64_t g_next_kernel_id = 1000;

template <const char* Kind>
void begin_kernel(const char* name, uint32_t device_id, uint64_t* kernel_id) {
  EXPECT_EQ(*kernel_id, 0u) << "the kernel id must start at 0 for the tool to write";
  *kernel_id = g_next_kernel_id++;
  g_kernels.push_back({std::string("begin ") + Kind, name, device_id, *kernel_id});
}
template <const char* Kind>
void end_kernel(uint64_t kernel_id) {
  g_kernels.push_back({std::string("end ") + Kind, "", 0, kernel_id});
}
constexpr char k_for[] = "for";
constexpr char k_reduce[] = "reduce";
constexpr char k_scan[] = "scan";

class ToolsCallbacksBase : public ::testing::Test {
 protected:
  void SetUp() override {
    KTE::set_callbacks({});
    g_kernels.clear();
  }
  void TearDown() override { KTE::set_callbacks({}); }
};

template <class Space>
class ToolsKernels : public ToolsCallbacksBase {};
TYPED_TEST_SUITE(ToolsKernels, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

void install_kernel_callbacks() {
  KTE::set_begin_parallel_for_callback(begin_kernel<k_for>);
  KTE::set_end_parallel_for_callback(end_kernel<k_for>);
  KTE::set_begin_parallel_reduce_callback(begin_kernel<k_reduce>);
  KTE::set_end_parallel_reduce_callback(end_kernel<k_reduce>);
  KTE::set_begin_parallel_scan_callback(begin_kernel<k_scan>);
  KTE::set_end_parallel_scan_callback(end_kernel<k_scan>);
}

struct NamedFunctor {
  KOKKOS_INLINE_FUNCTION void operator()(int) const {}
};
struct SomeTag {};
struct TaggedFunctor {
  KOKKOS_INLINE_FUNCTION void operator()(SomeTag, int) const {}
};

TYPED_TEST(ToolsKernels, EveryPatternReportsBeginAndEndWithMatchingIds) {
  using Space = TypeParam;
  install_kernel_callbacks();
  const uint32_t device = KTE::device_id(Space());
  Kokkos::parallel_for("my for", Kokkos::RangePolicy<Space>(0, 100), KOKKOS_LAMBDA(int){});
  long sum = 0;
  Kokkos::parallel_reduce(
      "my reduce", Kokkos::RangePolicy<Space>(0, 100), KOKKOS_LAMBDA(int i, long& s) { s += i; }, sum);
  EXPECT_EQ(sum, 4950);
  long total = 0;
  Kokkos::parallel_scan(
      "my scan", Kokkos::RangePolicy<Space>(0, 10),
      KOKKOS_LAMBDA(int i, long& update, bool) { update += i; }, total);
  EXPECT_EQ(total, 45);
  ASSERT_EQ(g_kernels.size(), 6u);
  const char* kinds[] = {"for", "reduce", "scan"};
  const char* names[] = {"my for", "my reduce", "my scan"};
  for (int k = 0; k < 3; ++k) {
    const KernelEvent& begin = g_kernels[2 * k];
    const KernelEvent& end = g_kernels[2 * k + 1];
    EXPECT_EQ(begin.kind, std::string("begin ") + kinds[k]);
    EXPECT_EQ(begin.name, names[k]);
    EXPECT_EQ(begin.device_id, device);
    EXPECT_EQ(end.kind, std::string("end ") + kinds[k]);
    EXPECT_EQ(end.kernel_id, begin.kernel_id) << "the end callback gets the id its begin callback wrote";
  }
}

TYPED_TEST(ToolsKernels, DeviceIdEncodesTheBackEndAndTheInstance) {
  using Space = TypeParam;
  const KTE::ExecutionSpaceIdentifier id = KTE::identifier_from_devid(KTE::device_id(Space()));
  EXPECT_EQ(id.type, KTE::DeviceTypeTraits<Space>::id);
  EXPECT_EQ(id.device_id, 0u);
  EXPECT_EQ(id.instance_id, Space().impl_instance_id());
  EXPECT_NE(id.instance_id, KTE::int_for_synchronization_reason(KTE::GlobalDeviceSynchronization));
}

TYPED_TEST(ToolsKernels, UnlabelledKernelsAreNamedAfterTheFunctorType) {
  using Space = TypeParam;
  install_kernel_callbacks();
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, 4), NamedFunctor{});
  Kokkos::parallel_for(Kokkos::RangePolicy<Space, SomeTag>(0, 4), TaggedFunctor{});
  ASSERT_EQ(g_kernels.size(), 4u);
  EXPECT_EQ(g_kernels[0].name, typeid(NamedFunctor).name());
  EXPECT_EQ(g_kernels[2].name, std::string(typeid(TaggedFunctor).name()) + "/" + typeid(SomeTag).name());
}

TYPED_TEST(ToolsKernels, NestedLaunchesFromOtherPoliciesAreReported) {
  using Space = TypeParam;
  install_kernel_callbacks();
  Kokkos::parallel_for("md", Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {3, 3}),
                       KOKKOS_LAMBDA(int, int){});
  int teams = 0;
  Kokkos::parallel_reduce(
      "team", Kokkos::TeamPolicy<Space>(4, Kokkos::AUTO),
      KOKKOS_LAMBDA(const typename Kokkos::TeamPolicy<Space>::member_type& m, int& n) {
        if (m.team_rank() == 0) ++n;
      },
      teams);
  EXPECT_EQ(teams, 4);
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 7), KOKKOS_LAMBDA(int){});
  ASSERT_EQ(g_kernels.size(), 6u);
  EXPECT_EQ(g_kernels[0].name, "md");
  EXPECT_EQ(g_kernels[2].kind, "begin reduce");
  EXPECT_EQ(g_kernels[2].name, "team");
  EXPECT_EQ(g_kernels[4].device_id, KTE::device_id(Kokkos::DefaultHostExecutionSpace()));
  for (int k = 0; k < 3; ++k) EXPECT_EQ(g_kernels[2 * k].kernel_id, g_kernels[2 * k + 1].kernel_id);
}

// ---- fences ---------------------------------------------------------------------------------

struct FenceEvent {
  std::string name;
  uint32_t device_id;
  uint64_t handle;
  bool begin;
};
std::vector<FenceEvent> g_fences;

class ToolsFences : public ToolsCallbacksBase {
 protected:
  void SetUp() override {
    ToolsCallbacksBase::SetUp();
    g_fences.clear();
    KTE::set_begin_fence_callback([](const char* name, uint32_t device_id, uint64_t* handle) {
      *handle = 500 + g_fences.size();
      g_fences.push_back({name, device_id, *handle, true});
    });
    KTE::set_end_fence_callback([](uint64_t handle) { g_fences.push_back({"", 0, handle, false}); });
  }
};

TEST_F(ToolsFences, GlobalFenceReportsEveryBackEndAsAllInstances) {
  Kokkos::fence("my global fence");
  int back_ends = 0;
#if defined(KOKKOS_ENABLE_SERIAL)
  ++back_ends;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  ++back_ends;
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  ++back_ends;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  ++back_ends;
#endif
  ASSERT_EQ(g_fences.size(), 2u * back_ends);
  for (int b = 0; b < back_ends; ++b) {
    const FenceEvent& begin = g_fences[2 * b];
    const FenceEvent& end = g_fences[2 * b + 1];
    EXPECT_TRUE(begin.begin);
    EXPECT_EQ(begin.name, "my global fence");
    EXPECT_EQ(KTE::identifier_from_devid(begin.device_id).instance_id,
              KTE::int_for_synchronization_reason(KTE::GlobalDeviceSynchronization));
    EXPECT_FALSE(end.begin);
    EXPECT_EQ(end.handle, begin.handle);
  }
  g_fences.clear();
  Kokkos::fence();
  ASSERT_FALSE(g_fences.empty());
  EXPECT_EQ(g_fences[0].name, "Kokkos::fence: Unnamed Global Fence");
}

template <class Space>
class ToolsInstanceFences : public ToolsFences {};
TYPED_TEST_SUITE(ToolsInstanceFences, Kokkos::Test::HostExecSpaces, Kokkos::Test::SpaceNames);

TYPED_TEST(ToolsInstanceFences, InstanceFenceNamesTheInstance) {
  using Space = TypeParam;
  Space().fence("instance fence");
  Space().fence();
  ASSERT_EQ(g_fences.size(), 4u);
  EXPECT_EQ(g_fences[0].name, "instance fence");
  EXPECT_EQ(g_fences[0].device_id, KTE::device_id(Space()));
  EXPECT_EQ(g_fences[1].handle, g_fences[0].handle);
  EXPECT_EQ(g_fences[2].name, std::string("Kokkos::") + Space::name() + "::fence: Unnamed Instance Fence");
  EXPECT_EQ(g_fences[3].handle, g_fences[2].handle);
}

// ---- deep copies and allocations ------------------------------------------------------------

struct CopyEvent {
  std::string dst_space, dst_label, src_space, src_label;
  const void* dst_ptr;
  const void* src_ptr;
  uint64_t bytes;
};
std::vector<CopyEvent> g_copies;
int g_copy_ends = 0;

struct AllocEvent {
  bool allocate;
  std::string space, label;
  const void* ptr;
  uint64_t bytes;
};
std::vector<AllocEvent> g_allocs;

class ToolsData : public ToolsCallbacksBase {
 protected:
  void SetUp() override {
    ToolsCallbacksBase::SetUp();
    g_copies.clear();
    g_copy_ends = 0;
    g_allocs.clear();
  }
};

TEST_F(ToolsData, DeepCopyReportsBothSidesAndEnds) {
  Kokkos::View<double*, Kokkos::HostSpace> a("a", 10), b("b", 10);
  KTE::set_begin_deep_copy_callback([](Kokkos::Tools::SpaceHandle dst_space, const char* dst_label,
                                       const void* dst_ptr, Kokkos::Tools::SpaceHandle src_space,
                                       const char* src_label, const void* src_ptr, uint64_t bytes) {
    EXPECT_EQ(g_copy_ends, static_cast<int>(g_copies.size())) << "copies do not nest";
    g_copies.push_back({dst_space.name, dst_label, src_space.name, src_label, dst_ptr, src_ptr, bytes});
  });
  KTE::set_end_deep_copy_callback([] { ++g_copy_ends; });

  Kokkos::deep_copy(a, 1.5);  // View <- scalar
  Kokkos::deep_copy(b, a);    // View <- View
  Kokkos::View<double, Kokkos::HostSpace> s("s");
  Kokkos::deep_copy(s, 2.5);
  double out = 0;
  Kokkos::deep_copy(out, s);  // scalar <- rank-0 View
  EXPECT_EQ(out, 2.5);
  EXPECT_EQ(b(9), 1.5);

  ASSERT_EQ(g_copies.size(), 4u);
  EXPECT_EQ(g_copy_ends, 4);
  EXPECT_EQ(g_copies[0].dst_space, "Host");
  EXPECT_EQ(g_copies[0].dst_label, "a");
  EXPECT_EQ(g_copies[0].dst_ptr, a.data());
  EXPECT_EQ(g_copies[0].src_label, "Scalar");
  EXPECT_EQ(g_copies[0].src_space, "Host");
  EXPECT_EQ(g_copies[0].bytes, 10 * sizeof(double));
  EXPECT_EQ(g_copies[1].dst_label, "b");
  EXPECT_EQ(g_copies[1].src_label, "a");
  EXPECT_EQ(g_copies[1].dst_ptr, b.data());
  EXPECT_EQ(g_copies[1].src_ptr, a.data());
  EXPECT_EQ(g_copies[1].src_space, "Host");
  EXPECT_EQ(g_copies[1].bytes, 10 * sizeof(double));
  EXPECT_EQ(g_copies[3].dst_label, "Scalar");
  EXPECT_EQ(g_copies[3].dst_ptr, &out);
  EXPECT_EQ(g_copies[3].src_label, "s");
  EXPECT_EQ(g_copies[3].bytes, sizeof(double));
}

std::vector<std::string> g_order;

TEST_F(ToolsData, DeepCopyFencesAreReportedInsideTheCopy) {
  g_order.clear();
  KTE::set_begin_deep_copy_callback(
      [](Kokkos::Tools::SpaceHandle, const char*, const void*, Kokkos::Tools::SpaceHandle, const char*, const void*,
         uint64_t) { g_order.push_back("begin copy"); });
  KTE::set_end_deep_copy_callback([] { g_order.push_back("end copy"); });
  KTE::set_begin_fence_callback([](const char*, uint32_t, uint64_t*) { g_order.push_back("fence"); });
  Kokkos::View<int*, Kokkos::HostSpace> v("v", 3);
  Kokkos::deep_copy(v, 4);
  ASSERT_GE(g_order.size(), 3u);
  EXPECT_EQ(g_order.front(), "begin copy");
  EXPECT_EQ(g_order[1], "fence");
  EXPECT_EQ(g_order.back(), "end copy");
}

TEST_F(ToolsData, ViewAllocationAndDeallocationAreReported) {
  KTE::set_allocate_data_callback(
      [](Kokkos::Tools::SpaceHandle space, const char* label, const void* ptr, uint64_t bytes) {
        g_allocs.push_back({true, space.name, label, ptr, bytes});
      });
  KTE::set_deallocate_data_callback(
      [](Kokkos::Tools::SpaceHandle space, const char* label, const void* ptr, uint64_t bytes) {
        g_allocs.push_back({false, space.name, label, ptr, bytes});
      });
  const void* data = nullptr;
  {
    Kokkos::View<float**, Kokkos::HostSpace> v("matrix", 8, 4);
    data = v.data();
    ASSERT_EQ(g_allocs.size(), 1u);
    auto copy = v;  // copies share the allocation: nothing reported
    EXPECT_EQ(g_allocs.size(), 1u);
  }
  ASSERT_EQ(g_allocs.size(), 2u);
  EXPECT_TRUE(g_allocs[0].allocate);
  EXPECT_EQ(g_allocs[0].space, "Host");
  EXPECT_EQ(g_allocs[0].label, "matrix");
  EXPECT_EQ(g_allocs[0].ptr, data);
  EXPECT_EQ(g_allocs[0].bytes, 8 * 4 * sizeof(float));
  EXPECT_FALSE(g_allocs[1].allocate);
  EXPECT_EQ(g_allocs[1].label, "matrix");
  EXPECT_EQ(g_allocs[1].ptr, data);
  EXPECT_EQ(g_allocs[1].bytes, 8 * 4 * sizeof(float));

  // Raw space allocations too, unlabelled ones under Kokkos' "[unlabeled]".
  g_allocs.clear();
  void* raw = Kokkos::HostSpace().allocate(100);
  Kokkos::HostSpace().deallocate(raw, 100);
  ASSERT_EQ(g_allocs.size(), 2u);
  EXPECT_EQ(g_allocs[0].label, "[unlabeled]");
  EXPECT_EQ(g_allocs[0].ptr, raw);
  EXPECT_EQ(g_allocs[1].ptr, raw);
  EXPECT_EQ(g_allocs[1].bytes, 100u);
}

// Tools written for Kokkos fill an EventSet (zeroed with memset, as it is a C struct there) and
// install it whole: entries it leaves null replace what was set before.
TEST_F(ToolsData, SetCallbacksInstallsAWholeTable) {
  KTE::set_begin_parallel_reduce_callback(begin_kernel<k_reduce>);
  KTE::EventSet events;
  std::memset(&events, 0, sizeof(events));
  events.begin_parallel_for = begin_kernel<k_for>;
  events.end_parallel_for = end_kernel<k_for>;
  KTE::set_callbacks(events);
  Kokkos::parallel_for("in the table", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 3), KOKKOS_LAMBDA(int){});
  int count = 0;
  Kokkos::parallel_reduce("not in the table", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 3),
                          KOKKOS_LAMBDA(int, int& c) { ++c; }, count);
  EXPECT_EQ(count, 3);
  ASSERT_EQ(g_kernels.size(), 2u);
  EXPECT_EQ(g_kernels[0].name, "in the table");
  EXPECT_EQ(g_kernels[1].kernel_id, g_kernels[0].kernel_id);
  EXPECT_EQ(KTE::get_callbacks().begin_parallel_for, events.begin_parallel_for);
  EXPECT_EQ(KTE::get_callbacks().begin_parallel_reduce, nullptr);
}

// ---- no callbacks -----------------------------------------------------------------------------

TEST_F(ToolsData, WithoutCallbacksEveryHookIsSilent) {
  EXPECT_FALSE(Kokkos::Tools::profileLibraryLoaded());
  // A callback set and cleared again leaves nothing behind.
  install_kernel_callbacks();
  KTE::set_callbacks({});
  Kokkos::View<int*, Kokkos::HostSpace> v("v", 50);
  const Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace> all(0, v.extent(0));
  Kokkos::parallel_for("f", all, KOKKOS_LAMBDA(int i) { v(i) = i; });
  int sum = 0;
  Kokkos::parallel_reduce("r", all, KOKKOS_LAMBDA(int i, int& s) { s += v(i); }, sum);
  Kokkos::parallel_scan("s", all, KOKKOS_LAMBDA(int i, int& u, bool) { u += v(i); });
  Kokkos::fence();
  auto h = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(h, v);
  EXPECT_EQ(sum, 1225);
  EXPECT_EQ(h(49), 49);
  EXPECT_TRUE(g_kernels.empty());
  EXPECT_TRUE(g_allocs.empty());
  EXPECT_TRUE(g_copies.empty());
}

#if defined(KOKKOS_ENABLE_SERIAL) && !defined(TOOLS_TEST_NO_ALLOCATION_COUNT)
// Serial launches and instance fences given a std::string allocate nothing themselves, so any
// allocation here would be the tools hooks' (a kernel name built, a label copied) -- unless a
// tool listens.
TEST_F(ToolsData, UnobservedHooksAllocateNothing) {
  Kokkos::View<int*, Kokkos::HostSpace> v("v", 10);
  const std::string label = "a label long enough to live on the heap, not in the string";
  auto launches = [&] {
    Kokkos::parallel_for(label, Kokkos::RangePolicy<Kokkos::Serial>(0, 10), KOKKOS_LAMBDA(int i) { v(i) = i; });
    Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Serial>(0, 10), NamedFunctor{});
    int sum = 0;
    Kokkos::parallel_reduce(
        label, Kokkos::RangePolicy<Kokkos::Serial>(0, 10), KOKKOS_LAMBDA(int i, int& s) { s += v(i); }, sum);
    Kokkos::Serial().fence(label);
    EXPECT_EQ(sum, 45);
  };
  launches();  // anything allocated once (first-launch set-up) is not counted below
  t_allocations = 0;
  t_count_allocations = true;
  launches();
  t_count_allocations = false;
  EXPECT_EQ(t_allocations, 0);

  // The same launches with a tool listening build names: the count above could tell.
  install_kernel_callbacks();
  t_allocations = 0;
  t_count_allocations = true;
  launches();
  t_count_allocations = false;
  EXPECT_GT(t_allocations, 0);
}
#endif


// Tools decide the memory space from its name (kokkos-tools' space-time-stack aborts on a name it
// does not know), so every space is named as in Kokkos, and so is the handle tools receive.
TEST(ToolsSpaceNames, SpacesHaveKokkosNames) {
  EXPECT_STREQ(Kokkos::HostSpace::name(), "Host");
  EXPECT_STREQ(Kokkos::ScratchMemorySpace<Kokkos::DefaultHostExecutionSpace>::name(), "ScratchMemorySpace");
#if defined(KOKKOS_ENABLE_SERIAL)
  EXPECT_STREQ(Kokkos::Serial::name(), "Serial");
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  EXPECT_STREQ(Kokkos::OpenMP::name(), "OpenMP");
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  EXPECT_STREQ(Kokkos::Threads::name(), "Threads");
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  EXPECT_STREQ(Kokkos::Cuda::name(), "Cuda");
  EXPECT_STREQ(Kokkos::CudaSpace::name(), "Cuda");
  EXPECT_STREQ(Kokkos::CudaUVMSpace::name(), "CudaUVM");
  EXPECT_STREQ(Kokkos::CudaHostPinnedSpace::name(), "CudaHostPinned");
#endif
  const Kokkos::Tools::SpaceHandle handle = Kokkos::Tools::make_space_handle(Kokkos::HostSpace::name());
  EXPECT_STREQ(handle.name, "Host");
}

// The tools-interface types under Kokkos' C and C++ names, with Kokkos' layouts.
TEST(ToolsSpaceNames, InterfaceTypesHaveKokkosNames) {
  static_assert(std::is_same_v<Kokkos::Profiling::KokkosPDeviceInfo, Kokkos_Profiling_KokkosPDeviceInfo>);
  Kokkos::Profiling::KokkosPDeviceInfo info{3};
  EXPECT_EQ(info.deviceID, 3u);

  static_assert(std::is_same_v<Kokkos::Tools::KernelStaticInfo, Kokkos_Profiling_Kernel_Static_Info>);
  static_assert(sizeof(Kokkos::Tools::KernelStaticInfo) == Kokkos_Profiling_Kernel_Static_Info_Size);
  Kokkos::Tools::KernelStaticInfo kernel{};
  kernel.functor_size = 24;
  EXPECT_EQ(kernel.functor_size, 24u);

  namespace KTE = Kokkos::Tools::Experimental;
  static_assert(std::is_same_v<KTE::VariableValue, Kokkos_Tools_VariableValue>);
  static_assert(std::is_same_v<KTE::OptimizationGoal, Kokkos_Tools_OptimizationGoal>);
  static_assert(sizeof(KTE::TuningString) == KOKKOS_TOOLS_TUNING_STRING_LENGTH);
  int64_t candidates[] = {32, 64, 128};
  KTE::VariableInfo variable{};
  variable.type = kokkos_value_int64;
  variable.category = kokkos_value_ordinal;
  variable.valueQuantity = kokkos_value_set;
  variable.candidates.set = KTE::ValueSet{3, {.int_value = candidates}};
  KTE::VariableValue value{7, {.int_value = 64}, &variable};
  EXPECT_EQ(value.metadata->candidates.set.values.int_value[2], 128);
  EXPECT_EQ(value.value.int_value, 64);
  std::strncpy(value.value.string_value, "block size", KOKKOS_TOOLS_TUNING_STRING_LENGTH - 1);
  EXPECT_STREQ(value.value.string_value, "block size");
  const KTE::OptimizationGoal goal{7, Kokkos_Tools_Minimize};
  EXPECT_EQ(goal.goal, Kokkos_Tools_Minimize);
}

}  // namespace
