/*
 * jextract input for etw4j's generated bindings (org.etw4j.nativebindings.generated).
 *
 * Parsed for the Windows x64 target (see compile_flags.txt) against the mingw-w64 headers, which stand in
 * for the Windows SDK. Only regenerate.sh reads this file; nothing compiles it.
 */
#include <_mingw.h>

/*
 * Windows is LLP64: C `long` is 32 bits there, 64 bits on the Linux host that runs jextract. jextract
 * types every C `long` as the host's canonical "long" layout and a Java `long` carrier, which would
 * bake the host's layout into the committed bindings. mingw-w64 spells every `long` of the Windows API
 * through the __LONG32 macro (it exists for 64-bit Cygwin, which is LP64), so we spell it `int`: same
 * size, alignment and signedness on Windows x64, and jextract then emits C_INT / Java `int`.
 * The ABI test (WindowsAbiTest) checks every layout against the unmodified headers compiled by
 * x86_64-w64-mingw32-gcc, and regenerate.sh fails if any C_LONG use survives.
 */
#undef __LONG32
#define __LONG32 int

#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>
#include <evntcons.h>
#include <tdh.h>
