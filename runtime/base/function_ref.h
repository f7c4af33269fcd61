// FunctionRef: a non-owning reference to a callable, for passing a condition
// or an action to an out-of-line function without a template (the wait loop
// is compiled once, in waiter.cpp) and without std::function's allocation.
// The referenced callable must outlive the FunctionRef.
#pragma once

#include <type_traits>
#include <utility>

namespace pure {

template <class Signature>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
  FunctionRef(F&& f)  // NOLINT: implicit by design, like a function pointer
      : object_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* object, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(object))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace pure
