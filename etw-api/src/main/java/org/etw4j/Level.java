package org.etw4j;

/**
 * The event levels Microsoft defines (winmeta.h; MS Learn, EVENT_DESCRIPTOR structure, member "Level").
 *
 * <p>Enum constants: immutable and thread-safe. An event's level is an unsigned byte (0-255): values 1-5 are
 * named here, 6-15 are reserved, 16-255 may be defined by a provider; APIs that take a level accept the raw
 * {@code int} as well. A session accepts an event when {@code event.level <= session.level}; level 0
 * ({@link #LOG_ALWAYS}) bypasses level filtering (MS Learn, EVENT_DESCRIPTOR structure), and a session or provider enabled at level 0 takes
 * every level (Windows' provider frameworks, see {@link org.etw4j.provider.EnableState#isEnabled}).
 */
public enum Level {
    /** 0: bypasses level-based filtering. Events should not use it (MS Learn, EVENT_DESCRIPTOR structure). */
    LOG_ALWAYS(0),
    /** 1: critical error. */
    CRITICAL(1),
    /** 2: error. */
    ERROR(2),
    /** 3: warning. */
    WARNING(3),
    /** 4: informational. */
    INFORMATIONAL(4),
    /** 5: verbose. */
    VERBOSE(5);

    private final int value;

    Level(int value) {
        this.value = value;
    }

    /** The level byte. */
    public int value() {
        return value;
    }

    /** The named level for {@code value}, or {@code null} for 6-255. */
    public static Level named(int value) {
        return value >= 0 && value <= 5 ? values()[value] : null;
    }

    /**
     * Checks that {@code level} fits an unsigned byte.
     *
     * @throws IllegalArgumentException naming {@code field} otherwise
     */
    public static int checkLevel(String field, int level) {
        if (level < 0 || level > 255) {
            throw new IllegalArgumentException(field + " must be 0-255 (an unsigned byte), got " + level);
        }
        return level;
    }
}
