package org.etw4j.consumer.model;

import java.util.List;

/**
 * The call stack the trace recorded for one event, resolved to frames: from kernel StackWalk events (StackWalk/Stack,
 * opcode 32, or stack caching's StackKeyKernel/StackKeyUser 37/38) that name the event by its thread and timestamp,
 * or from the event's own EVENT_HEADER extended items (STACK_TRACE32/64, STACK_KEY32/64). Immutable value;
 * thread-safe.
 *
 * @param processId    the process the stack belongs to (StackWalk's StackProcess, the record header's process id
 *                     for extended items, the sampled thread's process for CPU samples), {@code -1} when unknown
 * @param threadId     the thread the stack belongs to
 * @param rawTimestamp the event's timestamp in the trace's raw clock (what StackWalk's EventTimeStamp names and
 *                     {@link org.etw4j.RawEventRecord#rawTimestamp()} gives)
 * @param frames       the frames, root first (the event's own address last), as {@link CpuProfile} orders them
 * @param complete     {@code false} when the trace said a part would follow and it never came: a kernel part whose
 *                     user-mode part (same MatchId) the trace does not contain, or a stack key it never defined
 *                     ({@link StackFrame#UNKNOWN_KEY} then stands for that part)
 * @see TraceModel#stack(org.etw4j.RawEventRecord)
 */
public record EventStack(int processId, int threadId, long rawTimestamp, List<StackFrame> frames, boolean complete) {

    public EventStack {
        frames = List.copyOf(frames);
    }
}
