#!/usr/bin/env python3
"""Lines of every function in C/C++/CUDA files (namespace scope and struct members; lambdas count
within their function): a '{' whose preceding text ends a parameter list ')' (or a trailing
qualifier) opens a function; its length runs from its head to the closing '}'. Comments and strings
are skipped. Prints those over 120 lines (--all: every function) and the longest.
    primitives/tools/function_lengths.py primitives/src/* primitives/include/*"""
import re, sys
def strip(src):
    out=[]; i=0; n=len(src)
    while i<n:
        c=src[i]
        if src.startswith('//',i):
            j=src.find('\n',i); j=n if j<0 else j; out.append(' '*(j-i)); i=j
        elif src.startswith('/*',i):
            j=src.find('*/',i+2); j=n if j<0 else j+2; out.append(re.sub(r'[^\n]',' ',src[i:j])); i=j
        elif c in '"\'':
            j=i+1
            while j<n and src[j]!=c:
                j+=2 if src[j]=='\\' else 1
            out.append(c+' '*(j-i-1)+c if j<n else ''); i=j+1
        else: out.append(c); i+=1
    return ''.join(out)
def funcs(path):
    s=strip(open(path).read()); depth=0; res=[]; start=None; ns_depths=[]
    i=0
    for m in re.finditer(r'[{}]',s):
        pos=m.start()
        if s[pos]=='{':
            if depth==len(ns_depths):
                before=s[:pos].rstrip()
                head=before[before.rfind(';')+1:] if ';' in before else before
                head=head[head.rfind('}')+1:]
                if re.search(r'\bnamespace\b[^)]*$',head) or re.search(r'\b(struct|class)\s+\w+[^;()]*$',head) or re.search(r'extern\s*$',head) or re.search(r'extern\s+"C"\s*$',before):
                    ns_depths.append(depth+1)
                elif re.search(r'\)\s*(const|noexcept|override|->\s*[\w:<>, ]+)?\s*$',before):
                    name=re.findall(r'(\w+)\s*\(',head)
                    name=[x for x in name if x not in ('__launch_bounds__','__align__','if','for','while','switch','return')]
                    nm=name[-1] if name else '?'
                    # the line of the head's first non-blank text
                    hs=s.find(head.strip()[:20], pos-len(head)-1)
                    start=(nm, s.count('\n',0,hs)+1)
            depth+=1
        else:
            depth-=1
            if ns_depths and depth==ns_depths[-1]-1: ns_depths.pop(); continue
            if depth==len(ns_depths) and start:
                end=s.count('\n',0,pos)+1
                res.append((end-start[1]+1,start[0],start[1])); start=None
    return res
limit=120; allf='--all' in sys.argv
rows=[]
for p in [a for a in sys.argv[1:] if not a.startswith('--')]:
    for L,nm,ln in funcs(p): rows.append((L,p,ln,nm))
rows.sort(reverse=True)
for L,p,ln,nm in rows:
    if allf or L>limit: print(f'{L:5d}  {p}:{ln}  {nm}')
print(f'longest: {rows[0][0]} lines, {rows[0][3]} ({rows[0][1]}:{rows[0][2]})' if rows else 'none')
