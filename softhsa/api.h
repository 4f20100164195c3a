// Declarations of the implemented HSA functions, each with the type of its
// HSA header declaration (so a definition with another signature does not
// compile).
#ifndef SOFTHSA_API_H_
#define SOFTHSA_API_H_

#include "softhsa/runtime.h"

namespace softhsa::api {
#define SOFTHSA_API(table, name) decltype(::name) name;
#include "softhsa/api_list.inc"
#undef SOFTHSA_API
}  // namespace softhsa::api

#endif  // SOFTHSA_API_H_
