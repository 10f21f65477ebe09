package org.etw4j;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class ActivityIdTest {

    @Test
    void eventSourceActivityPathsDecodeAsTraceEventDoes() {
        // etw-formats.md section 5 [V]: TraceEvent's own comment and EventFlow's tests
        assertEquals("/#2125233/1/273", ActivityId.describePath(Guid.parse("0001111d-0000-0000-0000-00007bc7be59"), 2125233));
        assertNull(ActivityId.describePath(Guid.parse("0001111d-0000-0000-0000-00007bc7be59"), 42), "a path only with pid 2125233");
        assertEquals("//1/1", ActivityId.describePath(Guid.parse("00000011-0000-0000-0000-0000be999d59"), -1));
        assertNull(ActivityId.describePath(Guid.parse("66931e3d-e311-0000-06d0-af6611e3d501"), -1),
                "the locally unique id in AMSITrace.etl is not a path");
    }

    @Test
    void threadActivityIdFollowsEventActivityIdControl() {
        Guid before = ActivityId.current();
        Guid created = ActivityId.create();
        assertNotEquals(created, ActivityId.create(), "every created id is new");
        assertEquals(before, ActivityId.set(created));
        assertEquals(created, ActivityId.current());
        Guid previous = ActivityId.createAndSet();
        assertEquals(created, previous);
        assertNotEquals(created, ActivityId.current());
        ActivityId.set(before);
        assertEquals(before, ActivityId.current());
    }
}
