/* A stand-in for bcryptprimitives.dll, for running yttlint's Windows tests under Wine 8 (Debian
   12's), which lacks it: Rust's standard library and the getrandom crate call its ProcessPrng
   on Windows. This one answers from RtlGenRandom (advapi32's SystemFunction036). Built by
   scripts/wine-tests.sh with zig; never part of yttlint. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!SystemFunction036(data, n)) return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
