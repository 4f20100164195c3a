/* Hooks the GOT patcher puts in other objects' dlsym/dlvsym slots: rescan
   the loaded objects (a library dlopen'ed since the last scan is patched
   before the caller can look up and call its functions), then jump, not
   call, to the real function, so the return address glibc uses to find
   the caller (RTLD_NEXT, RTLD_DEFAULT's scope, symbol versions) is still
   the caller's. x86-64 SysV: the argument registers (at most 3 used) are
   saved around the C call, with the stack 16-byte aligned at the call. */
        .text

        .globl  roctracer_dlsym_hook
        .hidden roctracer_dlsym_hook
        .type   roctracer_dlsym_hook, @function
roctracer_dlsym_hook:
        .cfi_startproc
        push    %rdi
        .cfi_adjust_cfa_offset 8
        push    %rsi
        .cfi_adjust_cfa_offset 8
        push    %rdx
        .cfi_adjust_cfa_offset 8
        call    roctracer_got_rescan_hook
        pop     %rdx
        .cfi_adjust_cfa_offset -8
        pop     %rsi
        .cfi_adjust_cfa_offset -8
        pop     %rdi
        .cfi_adjust_cfa_offset -8
        jmp     *roctracer_real_dlsym(%rip)
        .cfi_endproc
        .size   roctracer_dlsym_hook, .-roctracer_dlsym_hook

        .globl  roctracer_dlvsym_hook
        .hidden roctracer_dlvsym_hook
        .type   roctracer_dlvsym_hook, @function
roctracer_dlvsym_hook:
        .cfi_startproc
        push    %rdi
        .cfi_adjust_cfa_offset 8
        push    %rsi
        .cfi_adjust_cfa_offset 8
        push    %rdx
        .cfi_adjust_cfa_offset 8
        call    roctracer_got_rescan_hook
        pop     %rdx
        .cfi_adjust_cfa_offset -8
        pop     %rsi
        .cfi_adjust_cfa_offset -8
        pop     %rdi
        .cfi_adjust_cfa_offset -8
        jmp     *roctracer_real_dlvsym(%rip)
        .cfi_endproc
        .size   roctracer_dlvsym_hook, .-roctracer_dlvsym_hook

        .section .note.GNU-stack,"",@progbits
