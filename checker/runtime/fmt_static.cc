// fmt's compiled part, built once into the static `topolint_fmt_static`
// (cmake/StaticRuntime.cmake) so that executables need no libfmt.so.
//
// Debian's libfmt-dev ships fmt's implementation as a header,
// <fmt/format-inl.h>, and only a shared library for it, which brings
// libstdc++.so with it at every start. Including the header in this one
// file compiles fmt's non-template functions here; the explicit
// instantiations are those that <fmt/format.h> declares `extern template`
// for the character types used by the library. Defining FMT_HEADER_ONLY
// instead would compile the same code into each of the ~110 files that use
// fmt (3 s more a file with gcc -O3).
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto thousands_sep_impl<char>(locale_ref)
    -> thousands_sep_result<char>;
template FMT_API auto thousands_sep_impl<wchar_t>(locale_ref)
    -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;

}  // namespace detail
FMT_END_NAMESPACE
