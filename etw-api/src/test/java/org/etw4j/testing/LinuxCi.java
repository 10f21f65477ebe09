package org.etw4j.testing;

import java.util.Locale;

/**
 * Whether this test run is the Linux CI, where every proof that needs something beside the clone ({@code ../shared},
 * the mingw-w64 cross compiler, the C stand-in library, Chromium, speedscope) must run: a missing one fails the test
 * instead of skipping it, because there a skip would hide a broken setup.
 *
 * <p>Stateless; thread-safe. The rule: the project variable {@value #VARIABLE} decides when set ({@code required}
 * or {@code optional}); otherwise {@code CI=true} means required. The Windows workflow sets it to {@code optional}:
 * GitHub sets {@code CI=true} on its runners and says overriding default variables may stop working, and none of
 * those Linux proofs exists on a Windows runner by design (the real-ETW tests prove the same things there).
 */
public final class LinuxCi {
    /** The project variable: {@code required} or {@code optional}. */
    public static final String VARIABLE = "ETW4J_LINUX_PROOFS";

    private LinuxCi() {
    }

    /** True when a missing Linux proof must fail the test rather than skip it. */
    public static boolean proofsRequired() {
        return proofsRequired(System.getenv(VARIABLE), System.getenv("CI"));
    }

    static boolean proofsRequired(String variable, String ci) {
        if (variable != null && !variable.isBlank()) {
            return switch (variable.trim().toLowerCase(Locale.ROOT)) {
                case "required" -> true;
                case "optional" -> false;
                default -> throw new IllegalStateException(VARIABLE + "=" + variable
                        + ": expected 'required' or 'optional'");
            };
        }
        return "true".equalsIgnoreCase(ci);
    }
}
