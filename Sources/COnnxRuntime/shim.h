// The part of ONNX Runtime's C API that padbench calls, declared here because the runtime is
// loaded at run time (dlopen) from PyPI's `onnxruntime` wheel, which ships no header.
//
// ONNX Runtime's `OrtApi` (onnxruntime_c_api.h) is a struct of function pointers whose order is
// append-only across releases: a slot never moves once released, so this prefix (slots 0-130, all
// present since API version 4) matches every library that answers `GetApi(13)`. Slots padbench
// does not call are `void *` placeholders that keep the offsets. Enumerations are passed as `int`
// with the values of the C API (see PadONNX/OrtConstants.swift). Every function returns NULL on
// success or an `OrtStatus *` that the caller reads and releases.
#ifndef PADBENCH_ONNXRUNTIME_SHIM_H
#define PADBENCH_ONNXRUNTIME_SHIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct OrtStatus OrtStatus;
typedef struct OrtEnv OrtEnv;
typedef struct OrtSession OrtSession;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtRunOptions OrtRunOptions;
typedef struct OrtValue OrtValue;
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtTypeInfo OrtTypeInfo;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;
typedef struct OrtAllocator OrtAllocator;

/// `OrtApi`'s first 131 slots, in the library's order (the slot number is in each comment).
typedef struct PadOrtApi {
    /*   0 */ void *slot0;
    /*   1 */ int(*GetErrorCode)(const OrtStatus *status);
    /*   2 */ const char *(*GetErrorMessage)(const OrtStatus *status);
    /*   3 */ OrtStatus *(*CreateEnv)(int loggingLevel, const char *logId, OrtEnv **out);
    /*   4 */ void *slot4;
    /*   5 */ void *slot5;
    /*   6 */ OrtStatus *(*DisableTelemetryEvents)(const OrtEnv *env);
    /*   7 */ void *slot7;
    /*   8 */ OrtStatus *(*CreateSessionFromArray)(const OrtEnv *env, const void *modelData, size_t modelLength, const OrtSessionOptions *options, OrtSession **out);
    /*   9 */ OrtStatus *(*Run)(OrtSession *session, const OrtRunOptions *runOptions, const char *const *inputNames, const OrtValue *const *inputs, size_t inputCount, const char *const *outputNames, size_t outputCount, OrtValue **outputs);
    /*  10 */ OrtStatus *(*CreateSessionOptions)(OrtSessionOptions **out);
    /*  11 */ void *slot11;
    /*  12 */ void *slot12;
    /*  13 */ void *slot13;
    /*  14 */ void *slot14;
    /*  15 */ void *slot15;
    /*  16 */ void *slot16;
    /*  17 */ void *slot17;
    /*  18 */ void *slot18;
    /*  19 */ void *slot19;
    /*  20 */ void *slot20;
    /*  21 */ void *slot21;
    /*  22 */ void *slot22;
    /*  23 */ OrtStatus *(*SetSessionGraphOptimizationLevel)(OrtSessionOptions *options, int level);
    /*  24 */ OrtStatus *(*SetIntraOpNumThreads)(OrtSessionOptions *options, int threads);
    /*  25 */ OrtStatus *(*SetInterOpNumThreads)(OrtSessionOptions *options, int threads);
    /*  26 */ void *slot26;
    /*  27 */ void *slot27;
    /*  28 */ void *slot28;
    /*  29 */ void *slot29;
    /*  30 */ OrtStatus *(*SessionGetInputCount)(const OrtSession *session, size_t *out);
    /*  31 */ OrtStatus *(*SessionGetOutputCount)(const OrtSession *session, size_t *out);
    /*  32 */ void *slot32;
    /*  33 */ OrtStatus *(*SessionGetInputTypeInfo)(const OrtSession *session, size_t index, OrtTypeInfo **out);
    /*  34 */ OrtStatus *(*SessionGetOutputTypeInfo)(const OrtSession *session, size_t index, OrtTypeInfo **out);
    /*  35 */ void *slot35;
    /*  36 */ OrtStatus *(*SessionGetInputName)(const OrtSession *session, size_t index, OrtAllocator *allocator, char **out);
    /*  37 */ OrtStatus *(*SessionGetOutputName)(const OrtSession *session, size_t index, OrtAllocator *allocator, char **out);
    /*  38 */ void *slot38;
    /*  39 */ void *slot39;
    /*  40 */ void *slot40;
    /*  41 */ void *slot41;
    /*  42 */ void *slot42;
    /*  43 */ void *slot43;
    /*  44 */ void *slot44;
    /*  45 */ void *slot45;
    /*  46 */ void *slot46;
    /*  47 */ void *slot47;
    /*  48 */ void *slot48;
    /*  49 */ OrtStatus *(*CreateTensorWithDataAsOrtValue)(const OrtMemoryInfo *info, void *data, size_t byteCount, const int64_t *shape, size_t rank, int elementType, OrtValue **out);
    /*  50 */ void *slot50;
    /*  51 */ OrtStatus *(*GetTensorMutableData)(OrtValue *value, void **out);
    /*  52 */ void *slot52;
    /*  53 */ void *slot53;
    /*  54 */ void *slot54;
    /*  55 */ OrtStatus *(*CastTypeInfoToTensorInfo)(const OrtTypeInfo *typeInfo, const OrtTensorTypeAndShapeInfo **out);
    /*  56 */ OrtStatus *(*GetOnnxTypeFromTypeInfo)(const OrtTypeInfo *typeInfo, int *out);
    /*  57 */ void *slot57;
    /*  58 */ void *slot58;
    /*  59 */ void *slot59;
    /*  60 */ OrtStatus *(*GetTensorElementType)(const OrtTensorTypeAndShapeInfo *info, int *out);
    /*  61 */ OrtStatus *(*GetDimensionsCount)(const OrtTensorTypeAndShapeInfo *info, size_t *out);
    /*  62 */ OrtStatus *(*GetDimensions)(const OrtTensorTypeAndShapeInfo *info, int64_t *dims, size_t count);
    /*  63 */ void *slot63;
    /*  64 */ OrtStatus *(*GetTensorShapeElementCount)(const OrtTensorTypeAndShapeInfo *info, size_t *out);
    /*  65 */ OrtStatus *(*GetTensorTypeAndShape)(const OrtValue *value, OrtTensorTypeAndShapeInfo **out);
    /*  66 */ void *slot66;
    /*  67 */ void *slot67;
    /*  68 */ void *slot68;
    /*  69 */ OrtStatus *(*CreateCpuMemoryInfo)(int allocatorType, int memoryType, OrtMemoryInfo **out);
    /*  70 */ void *slot70;
    /*  71 */ void *slot71;
    /*  72 */ void *slot72;
    /*  73 */ void *slot73;
    /*  74 */ void *slot74;
    /*  75 */ void *slot75;
    /*  76 */ OrtStatus *(*AllocatorFree)(OrtAllocator *allocator, void *pointer);
    /*  77 */ void *slot77;
    /*  78 */ OrtStatus *(*GetAllocatorWithDefaultOptions)(OrtAllocator **out);
    /*  79 */ void *slot79;
    /*  80 */ void *slot80;
    /*  81 */ void *slot81;
    /*  82 */ void *slot82;
    /*  83 */ void *slot83;
    /*  84 */ void *slot84;
    /*  85 */ void *slot85;
    /*  86 */ void *slot86;
    /*  87 */ void *slot87;
    /*  88 */ void *slot88;
    /*  89 */ void *slot89;
    /*  90 */ void *slot90;
    /*  91 */ void *slot91;
    /*  92 */ void(*ReleaseEnv)(OrtEnv *object);
    /*  93 */ void(*ReleaseStatus)(OrtStatus *object);
    /*  94 */ void(*ReleaseMemoryInfo)(OrtMemoryInfo *object);
    /*  95 */ void(*ReleaseSession)(OrtSession *object);
    /*  96 */ void(*ReleaseValue)(OrtValue *object);
    /*  97 */ void *slot97;
    /*  98 */ void(*ReleaseTypeInfo)(OrtTypeInfo *object);
    /*  99 */ void(*ReleaseTensorTypeAndShapeInfo)(OrtTensorTypeAndShapeInfo *object);
    /* 100 */ void(*ReleaseSessionOptions)(OrtSessionOptions *object);
    /* 101 */ void *slot101;
    /* 102 */ void *slot102;
    /* 103 */ void *slot103;
    /* 104 */ void *slot104;
    /* 105 */ void *slot105;
    /* 106 */ void *slot106;
    /* 107 */ void *slot107;
    /* 108 */ void *slot108;
    /* 109 */ void *slot109;
    /* 110 */ void *slot110;
    /* 111 */ void *slot111;
    /* 112 */ void *slot112;
    /* 113 */ void *slot113;
    /* 114 */ void *slot114;
    /* 115 */ void *slot115;
    /* 116 */ void *slot116;
    /* 117 */ void *slot117;
    /* 118 */ void *slot118;
    /* 119 */ void *slot119;
    /* 120 */ void *slot120;
    /* 121 */ void *slot121;
    /* 122 */ void *slot122;
    /* 123 */ void *slot123;
    /* 124 */ void *slot124;
    /* 125 */ void *slot125;
    /* 126 */ void *slot126;
    /* 127 */ void *slot127;
    /* 128 */ void *slot128;
    /* 129 */ void *slot129;
    /* 130 */ OrtStatus *(*AddSessionConfigEntry)(OrtSessionOptions *options, const char *key, const char *value);
} PadOrtApi;

/// `OrtApiBase`, what the exported `OrtGetApiBase()` returns.
typedef struct PadOrtApiBase {
    const PadOrtApi *(*GetApi)(uint32_t version);
    const char *(*GetVersionString)(void);
} PadOrtApiBase;

typedef const PadOrtApiBase *(*PadOrtGetApiBase)(void);

#endif
