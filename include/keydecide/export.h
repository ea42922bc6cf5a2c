// KD_API marks what libkeydecide.so exports: the C ABI (keydecide.h) and the C++ API of this
// folder. Everything else in the library is built with hidden visibility, so a host sees only
// these names and the library may change the rest freely.

#ifndef KEYDECIDE_EXPORT_H_
#define KEYDECIDE_EXPORT_H_

#if defined(__GNUC__) || defined(__clang__)
#define KD_API __attribute__((visibility("default")))
#else
#define KD_API
#endif

#endif  // KEYDECIDE_EXPORT_H_
