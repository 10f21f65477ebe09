package org.etw4j.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LinuxCiTest {
    @Test
    void theProjectVariableDecidesElseCi() {
        assertTrue(LinuxCi.proofsRequired(null, "true"));
        assertTrue(LinuxCi.proofsRequired(null, "TRUE"));
        assertFalse(LinuxCi.proofsRequired(null, null));
        assertFalse(LinuxCi.proofsRequired(null, "false"));
        assertFalse(LinuxCi.proofsRequired("optional", "true"), "the Windows workflow: CI=true, variable optional");
        assertTrue(LinuxCi.proofsRequired("required", null));
        assertFalse(LinuxCi.proofsRequired(" ", null));
        assertThrows(IllegalStateException.class, () -> LinuxCi.proofsRequired("maybe", "true"));
    }
}
