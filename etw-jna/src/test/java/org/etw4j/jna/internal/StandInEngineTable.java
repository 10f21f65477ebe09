package org.etw4j.jna.internal;

import com.sun.jna.Callback;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;

/**
 * The provider part of the stand-in's {@code ETW_STANDIN_ENGINE} (etw_standin.h) as a JNA structure: {@code Size},
 * {@code Flags}, then the ten provider entries in the header's order. {@code Size} is this structure's size, so
 * the stand-in treats the controller and TDH entries after it as absent.
 *
 * <p>Not thread-safe; written once per install. The callback objects must stay reachable while installed
 * (JNA frees a callback's native trampoline when the object is collected): {@link SimEngine} keeps them.
 */
@Structure.FieldOrder({"Size", "Flags", "EventRegister", "EventUnregister", "EventEnabled", "EventProviderEnabled", "EventWrite",
        "EventWriteTransfer", "EventWriteEx", "EventWriteString", "EventActivityIdControl", "EventSetInformation"})
@SuppressWarnings("exports") // test code: JNA types in a public test type are fine
public class StandInEngineTable extends Structure {
    /** ETW_STANDIN_FLAG_NOOP_WRITES. */
    static final int FLAG_NOOP_WRITES = 0x1;

    public int Size;
    public int Flags;
    public RegisterFn EventRegister;
    public UnregisterFn EventUnregister;
    public EnabledFn EventEnabled;
    public ProviderEnabledFn EventProviderEnabled;
    public WriteFn EventWrite;
    public WriteTransferFn EventWriteTransfer;
    public WriteExFn EventWriteEx;
    public Pointer EventWriteString;
    /** The stand-in's own C function (EtwStandIn_EventActivityIdControlPerOsThread): ids per OS thread, as Windows. */
    public Pointer EventActivityIdControl;
    public SetInformationFn EventSetInformation;

    /** The field names in order (the C table's entry names). */
    java.util.List<String> fieldNames() {
        return getFieldOrder();
    }

    /** Offset of a field in this structure, to compare with the C table. */
    int offsetOf(String field) {
        return fieldOffset(field);
    }

    public interface RegisterFn extends Callback {
        int invoke(Pointer providerId, Pointer enableCallback, Pointer callbackContext, Pointer regHandle);
    }

    public interface UnregisterFn extends Callback {
        int invoke(long regHandle);
    }

    public interface EnabledFn extends Callback {
        byte invoke(long regHandle, Pointer eventDescriptor);
    }

    public interface ProviderEnabledFn extends Callback {
        byte invoke(long regHandle, byte level, long keyword);
    }

    public interface WriteFn extends Callback {
        int invoke(long regHandle, Pointer eventDescriptor, int userDataCount, Pointer userData);
    }

    public interface WriteTransferFn extends Callback {
        int invoke(long regHandle, Pointer eventDescriptor, Pointer activityId, Pointer relatedActivityId, int userDataCount,
                   Pointer userData);
    }

    public interface WriteExFn extends Callback {
        int invoke(long regHandle, Pointer eventDescriptor, long filter, int flags, Pointer activityId, Pointer relatedActivityId,
                   int userDataCount, Pointer userData);
    }

    public interface SetInformationFn extends Callback {
        int invoke(long regHandle, int informationClass, Pointer information, int informationLength);
    }
}
