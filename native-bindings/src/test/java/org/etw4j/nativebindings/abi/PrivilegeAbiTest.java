package org.etw4j.nativebindings.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemoryLayout.PathElement;
import java.nio.file.Path;
import java.util.Optional;
import org.etw4j.Win32Error;
import org.etw4j.nativebindings.layout.TokenFunctions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-written token layouts and constants of {@link TokenFunctions} (SeSystemProfilePrivilege, issue 21 item 12)
 * against the mingw-w64 headers compiled for x64 Windows: LUID, LUID_AND_ATTRIBUTES, TOKEN_PRIVILEGES (size,
 * alignment, offsets), TOKEN_ADJUST_PRIVILEGES, TOKEN_QUERY, SE_PRIVILEGE_ENABLED, ERROR_NOT_ALL_ASSIGNED (also
 * {@link Win32Error}'s) and SE_SYSTEM_PROFILE_NAME. The function descriptors are checked with the other hand-bound
 * ones in {@link WindowsAbiTest}.
 */
class PrivilegeAbiTest {
    @TempDir
    Path work;

    @Test
    void tokenLayoutsAndConstantsAreTheHeaders() throws Exception {
        Optional<MingwToolchain> t = MingwToolchain.locate();
        Assumptions.assumeTrue(t.isPresent(), MingwToolchain.MISSING);
        CProbe probe = new CProbe();
        probe.value("LUID.size", "sizeof(LUID)");
        probe.value("LUID.align", "_Alignof(LUID)");
        probe.value("LUID.HighPart", "offsetof(LUID, HighPart)");
        probe.value("LUID_AND_ATTRIBUTES.size", "sizeof(LUID_AND_ATTRIBUTES)");
        probe.value("LUID_AND_ATTRIBUTES.align", "_Alignof(LUID_AND_ATTRIBUTES)");
        probe.value("LUID_AND_ATTRIBUTES.Attributes", "offsetof(LUID_AND_ATTRIBUTES, Attributes)");
        probe.value("TOKEN_PRIVILEGES.size", "sizeof(TOKEN_PRIVILEGES)");
        probe.value("TOKEN_PRIVILEGES.align", "_Alignof(TOKEN_PRIVILEGES)");
        probe.value("TOKEN_PRIVILEGES.Privileges", "offsetof(TOKEN_PRIVILEGES, Privileges)");
        probe.value("TOKEN_ADJUST_PRIVILEGES", "TOKEN_ADJUST_PRIVILEGES");
        probe.value("TOKEN_QUERY", "TOKEN_QUERY");
        probe.value("SE_PRIVILEGE_ENABLED", "SE_PRIVILEGE_ENABLED");
        probe.value("ERROR_NOT_ALL_ASSIGNED", "ERROR_NOT_ALL_ASSIGNED");
        // SE_SYSTEM_PROFILE_NAME is TEXT("SeSystemProfilePrivilege"): compare its length and each character.
        String name = TokenFunctions.SE_SYSTEM_PROFILE_NAME;
        probe.value("SE_SYSTEM_PROFILE_NAME.length", "sizeof(SE_SYSTEM_PROFILE_NAME) / sizeof(SE_SYSTEM_PROFILE_NAME[0]) - 1");
        for (int i = 0; i < name.length(); i++) {
            probe.value("SE_SYSTEM_PROFILE_NAME[" + i + "]", "SE_SYSTEM_PROFILE_NAME[" + i + "]");
        }
        CProbe.Result r = probe.compute(t.get(), work);

        assertEquals(r.value("LUID.size"), TokenFunctions.LUID.byteSize());
        assertEquals(r.value("LUID.align"), TokenFunctions.LUID.byteAlignment());
        assertEquals(r.value("LUID.HighPart"), TokenFunctions.LUID.byteOffset(PathElement.groupElement("HighPart")));
        assertEquals(r.value("LUID_AND_ATTRIBUTES.size"), TokenFunctions.LUID_AND_ATTRIBUTES.byteSize());
        assertEquals(r.value("LUID_AND_ATTRIBUTES.align"), TokenFunctions.LUID_AND_ATTRIBUTES.byteAlignment());
        assertEquals(r.value("LUID_AND_ATTRIBUTES.Attributes"),
                TokenFunctions.LUID_AND_ATTRIBUTES.byteOffset(PathElement.groupElement("Attributes")));
        assertEquals(r.value("TOKEN_PRIVILEGES.size"), TokenFunctions.TOKEN_PRIVILEGES.byteSize());
        assertEquals(r.value("TOKEN_PRIVILEGES.align"), TokenFunctions.TOKEN_PRIVILEGES.byteAlignment());
        assertEquals(r.value("TOKEN_PRIVILEGES.Privileges"),
                TokenFunctions.TOKEN_PRIVILEGES.byteOffset(PathElement.groupElement("Privileges")));
        assertEquals(r.value("TOKEN_ADJUST_PRIVILEGES"), TokenFunctions.TOKEN_ADJUST_PRIVILEGES);
        assertEquals(r.value("TOKEN_QUERY"), TokenFunctions.TOKEN_QUERY);
        assertEquals(r.value("SE_PRIVILEGE_ENABLED"), TokenFunctions.SE_PRIVILEGE_ENABLED);
        assertEquals(r.value("ERROR_NOT_ALL_ASSIGNED"), TokenFunctions.ERROR_NOT_ALL_ASSIGNED);
        assertEquals(r.value("ERROR_NOT_ALL_ASSIGNED"), Win32Error.ERROR_NOT_ALL_ASSIGNED.code());
        assertEquals(r.value("SE_SYSTEM_PROFILE_NAME.length"), name.length());
        for (int i = 0; i < name.length(); i++) {
            assertEquals(r.value("SE_SYSTEM_PROFILE_NAME[" + i + "]"), name.charAt(i), "SE_SYSTEM_PROFILE_NAME[" + i + "]");
        }
    }
}
