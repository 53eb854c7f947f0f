#pragma once
// Kokkos::vector<Scalar, Arg1Type>: a std::vector-like array over a DualView<Scalar*, LayoutLeft,
// Arg1Type>.  Kokkos 4.2 deprecated it; as in Kokkos 4.6 it is available while
// Kokkos_ENABLE_DEPRECATED_CODE_4 is ON, and marked deprecated.
//
// The std::vector operations (element access, iterators, push_back, insert, resize, ...) work on
// the host copy and leave it the modified side; assign() and resize(n, value) fill the host when
// it was modified last, else the device.  The data reach kernels through the DualView: sync it, or call
// host_to_device() / device_to_host(), which copy without changing the modified flags.  The
// allocation grows to the size times the over-allocation factor (1.1; set_overallocation).
#include <Kokkos_Abort.hpp>
#include <Kokkos_DualView.hpp>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

#if defined(KOKKOS_ENABLE_DEPRECATED_CODE_4)

namespace Kokkos {

template <class Scalar, class Arg1Type = void>
class KOKKOS_DEPRECATED vector : public DualView<Scalar*, LayoutLeft, Arg1Type> {
  using DV = DualView<Scalar*, LayoutLeft, Arg1Type>;

 public:
  using value_type = Scalar;
  using pointer = Scalar*;
  using const_pointer = const Scalar*;
  using reference = Scalar&;
  using const_reference = const Scalar&;
  using iterator = Scalar*;
  using const_iterator = const Scalar*;
  using size_type = std::size_t;

  vector() = default;
  // n copies of val, filled on the host.
  explicit vector(int n, Scalar val = Scalar()) : DV("Vector", grown(size_type(n), default_overallocation)) {
    DV::modify_host();
    assign(size_type(n), val);
  }

  reference operator()(int i) const { return DV::h_view(i); }
  reference operator[](int i) const { return DV::h_view(i); }

  void resize(size_type n) {
    if (n >= span()) DV::resize(grown(n));
    m_size = n;
  }
  void resize(size_type n, const Scalar& val) { assign(n, val); }

  // The first n elements become val: on the host when it was modified last, else on the device.
  void assign(size_type n, const Scalar& val) {
    if (n > span()) DV::resize(grown(n));
    m_size = n;
    const std::pair<size_type, size_type> first_n(0, n);
    if (DV::need_sync_device()) {
      Kokkos::deep_copy(Kokkos::subview(DV::h_view, first_n), val);
      DV::modify_host();
    } else {
      Kokkos::deep_copy(Kokkos::subview(DV::d_view, first_n), val);
      DV::modify_device();
    }
  }

  // Room for n elements without another allocation; never shrinks.
  void reserve(size_type n) {
    if (n > span()) DV::resize(grown(n));
  }

  void push_back(Scalar val) {
    on_host_copy();
    if (m_size == span()) {
      const size_type larger = grown(m_size);
      DV::resize(larger > m_size ? larger : m_size + 1);
    }
    DV::h_view(m_size) = val;
    ++m_size;
  }

  void pop_back() {
    if (m_size == 0) Kokkos::abort("Kokkos::vector::pop_back: the vector is empty");
    --m_size;
  }

  void clear() { m_size = 0; }

  iterator insert(iterator it, const value_type& val) { return insert(it, 1, val); }

  iterator insert(iterator it, size_type count, const value_type& val) {
    const size_type at = insert_position(it);
    open_gap(at, count);
    std::fill_n(begin() + at, count, val);
    return begin() + at;
  }

  template <class InputIterator, class = std::enable_if_t<!std::is_convertible_v<InputIterator, size_type>>>
  iterator insert(iterator it, InputIterator first, InputIterator last) {
    const size_type at = insert_position(it);
    const size_type count = size_type(std::distance(first, last));
    open_gap(at, count);
    std::copy(first, last, begin() + at);
    return begin() + at;
  }

  size_type size() const { return m_size; }
  size_type max_size() const { return 2000000000; }
  size_type span() const { return DV::span(); }
  bool empty() const { return m_size == 0; }

  iterator begin() const { return DV::h_view.data(); }
  iterator end() const { return DV::h_view.data() + m_size; }
  reference front() const { return DV::h_view(0); }
  reference back() const { return DV::h_view(m_size - 1); }

  // In data sorted ascending on the host: the first index of [start, min(stop, size())) whose
  // element is not less than value, or that end when there is none.
  size_type lower_bound(const size_type& start, const size_type& stop, const Scalar& value) const {
    const size_type last = std::min(stop, m_size);
    if (start >= last) return last;
    return size_type(std::lower_bound(begin() + start, begin() + last, value) - begin());
  }

  bool is_sorted() const { return std::is_sorted(begin(), end()); }

  // In data sorted ascending on the host: an element equal to value, or end().
  iterator find(Scalar value) const {
    const iterator it = std::lower_bound(begin(), end(), value);
    return it != end() && *it == value ? it : end();
  }

  void device_to_host() { Kokkos::deep_copy(DV::h_view, DV::d_view); }
  void host_to_device() const { Kokkos::deep_copy(DV::d_view, DV::h_view); }
  void on_host() { DV::modify_host(); }
  void on_device() { DV::modify_device(); }

  // The allocation grows to (1 + extra) times the size it must hold.
  void set_overallocation(float extra) { m_extra_storage = 1.0f + extra; }

 private:
  // Static, for the base's initialiser, which runs before m_extra_storage is set.
  static size_type grown(size_type n, float factor) { return size_type(double(n) * double(factor)); }
  size_type grown(size_type n) const { return grown(n, m_extra_storage); }

  void on_host_copy() {
    DV::sync_host();
    DV::modify_host();
  }

  size_type insert_position(iterator it) {
    on_host_copy();
    if (it < begin() || it > end()) Kokkos::abort("Kokkos::vector::insert: the iterator is not in the vector");
    return size_type(it - begin());
  }

  // Moves [at, size()) up by count, growing the allocation if needed (which moves begin()).
  void open_gap(size_type at, size_type count) {
    const size_type old_size = m_size;
    resize(old_size + count);
    Scalar* const data = begin();
    for (size_type i = old_size; i > at; --i) data[i - 1 + count] = data[i - 1];
  }

  static constexpr float default_overallocation = 1.1f;
  size_type m_size = 0;
  float m_extra_storage = default_overallocation;
};

}  // namespace Kokkos

#endif
