#pragma once
// Included first in every core and test translation unit of a libstdc++ build (the precompiled
// header's first line, or -include where there is none; core/CMakeLists.txt).
//
// libstdc++ declares std::string's members extern templates, so our code called the copies in
// libstdc++.so for every string it built, copied, compared or freed (_M_dispose, _M_append,
// _M_construct, ...: ~9 % of a scale run's instructions, none of them inlined). Setting
// _GLIBCXX_EXTERN_TEMPLATE to -1 is libstdc++'s own switch (see bits/c++config.h) for "no extern
// templates in basic_string only": our code instantiates and inlines those members, as the
// WebAssembly build does with _LIBCPP_DISABLE_EXTERN_TEMPLATE. The other extern templates
// (streams, locales) stay. Mixing with code built without it is safe: the instantiations are the
// same functions. docs/performance.md, "What each mechanism buys".

#include <bits/c++config.h>  // defines _GLIBCXX_EXTERN_TEMPLATE 1; redefined once below

#if defined(__GLIBCXX__) && _GLIBCXX_EXTERN_TEMPLATE > 0
#undef _GLIBCXX_EXTERN_TEMPLATE
#define _GLIBCXX_EXTERN_TEMPLATE -1
#endif
