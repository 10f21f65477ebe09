/*
 * Windows SDK declarations that the mingw-w64 headers lack, transcribed from Microsoft Learn so that the ABI
 * test can compute their Windows x64 layout with x86_64-w64-mingw32-gcc. Compiled only by the test.
 * Names carry a DOC_ prefix where mingw-w64 declares the same structure differently or not at all.
 */
#ifndef ETW4J_SDK_DOCUMENTED_H
#define ETW4J_SDK_DOCUMENTED_H

/* "EVENT_FILTER_EVENT_ID structure (evntprov.h)" */
typedef struct _DOC_EVENT_FILTER_EVENT_ID {
  BOOLEAN FilterIn;
  UCHAR   Reserved;
  USHORT  Count;
  USHORT  Events[ANYSIZE_ARRAY];
} DOC_EVENT_FILTER_EVENT_ID;

/* "EVENT_PROPERTY_INFO structure (tdh.h)": the SDK version, with customSchemaType and Tags. */
typedef struct _DOC_EVENT_PROPERTY_INFO {
  PROPERTY_FLAGS Flags;
  ULONG          NameOffset;
  union {
    struct {
      USHORT InType;
      USHORT OutType;
      ULONG  MapNameOffset;
    } nonStructType;
    struct {
      USHORT StructStartIndex;
      USHORT NumOfStructMembers;
      ULONG  padding;
    } structType;
    struct {
      USHORT InType;
      USHORT OutType;
      ULONG  CustomSchemaOffset;
    } customSchemaType;
  };
  union {
    USHORT count;
    USHORT countPropertyIndex;
  };
  union {
    USHORT length;
    USHORT lengthPropertyIndex;
  };
  union {
    ULONG Reserved;
    struct {
      ULONG Tags : 28;
    };
  };
} DOC_EVENT_PROPERTY_INFO;

/* "TRACE_EVENT_INFO structure (tdh.h)": the SDK version, with the EventName/EventAttributes unions and Tags. */
typedef struct _DOC_TRACE_EVENT_INFO {
  GUID             ProviderGuid;
  GUID             EventGuid;
  EVENT_DESCRIPTOR EventDescriptor;
  DECODING_SOURCE  DecodingSource;
  ULONG            ProviderNameOffset;
  ULONG            LevelNameOffset;
  ULONG            ChannelNameOffset;
  ULONG            KeywordsNameOffset;
  ULONG            TaskNameOffset;
  ULONG            OpcodeNameOffset;
  ULONG            EventMessageOffset;
  ULONG            ProviderMessageOffset;
  ULONG            BinaryXMLOffset;
  ULONG            BinaryXMLSize;
  union {
    ULONG EventNameOffset;
    ULONG ActivityIDNameOffset;
  };
  union {
    ULONG EventAttributesOffset;
    ULONG RelatedActivityIDNameOffset;
  };
  ULONG            PropertyCount;
  ULONG            TopLevelPropertyCount;
  union {
    TEMPLATE_FLAGS Flags;
    struct {
      ULONG Reserved : 4;
      ULONG Tags : 28;
    };
  };
  DOC_EVENT_PROPERTY_INFO EventPropertyInfoArray[ANYSIZE_ARRAY];
} DOC_TRACE_EVENT_INFO;

/*
 * tdh.h functions missing from mingw-w64 ("TdhFormatProperty function", "TdhLoadManifest function",
 * "TdhUnloadManifest function", "TdhLoadManifestFromBinary function"). TDHSTATUS is ULONG. The ABI test checks
 * the hand-written FunctionDescriptors against these prototypes (WindowsAbiTest, SignatureCheck).
 */
ULONG WINAPI TdhFormatProperty(PTRACE_EVENT_INFO EventInfo, PEVENT_MAP_INFO MapInfo, ULONG PointerSize,
    USHORT PropertyInType, USHORT PropertyOutType, USHORT PropertyLength, USHORT UserDataLength,
    PBYTE UserData, PULONG BufferSize, PWCHAR Buffer, PUSHORT UserDataConsumed);

ULONG WINAPI TdhLoadManifest(PWSTR Manifest);

ULONG WINAPI TdhUnloadManifest(PWSTR Manifest);

ULONG WINAPI TdhLoadManifestFromBinary(PWSTR BinaryPath);

#endif
