"""A tiny inline Chinese corpus and lexicon in the layout of data/zh (for the zh tests; the
sentences, counts and readings are written for this file, not taken from any corpus or
dictionary)."""

from __future__ import annotations

import json
from pathlib import Path

TRAIN_DOCS = """\
我们今天学习中国的历史。
你可以使用 git push 命令上传代码。
请运行 python3 脚本 build.py 来安装软件。
这个软件包提供了一个简单的编辑器。
我们的老师说明天下雨。
中国人民银行发布了新的报告。
请打开终端，然后输入 ls -l 查看文件。
如果你需要帮助，请使用 --help 选项。
这个文件的名字是 config.json。
我们一起去学校学习。

今天天气很好，我们去公园。
他在银行工作了三年。
你可以用 apt-get install vim 安装编辑器。
系统启动的时候会读取配置文件。
请访问 https://www.example.org/docs 获取更多信息。
我们使用 git 管理代码，使用 python 写脚本。
"""

HELP_DOCS = """\
按下 Ctrl+S 保存文件。
你可以在菜单中打开文件。
这个选项可以修改系统的配置。
请使用 make install 安装软件包。
"""

DEV_DOCS = """\
我们使用 git 管理代码。
今天的天气很好。
请运行 python3 脚本。
"""

# word, toneless syllables, jieba-style count (single characters without a count are
# still segmentation words, with count 1, as make_pinyin_eval does).
WORDS = """\
我们 wo men 5000
今天 jin tian 900
学习 xue xi 800
中国 zhong guo 3000
的 de 20000
历史 li shi 300
你 ni 4000
可以 ke yi 2000
使用 shi yong 1500
命令 ming ling 400
上传 shang chuan 100
代码 dai ma 200
请 qing 1200
运行 yun xing 300
脚本 jiao ben 150
来 lai 3000
安装 an zhuang 600
软件 ruan jian 700
这个 zhe ge 2500
软件包 ruan jian bao 80
提供 ti gong 500
了 le 9000
一个 yi ge 4000
简单 jian dan 400
编辑器 bian ji qi 60
编辑 bian ji 200
老师 lao shi 700
说 shuo 3000
明天 ming tian 600
下雨 xia yu 100
人民 ren min 1500
银行 yin hang 500
发布 fa bu 300
新 xin 1000
报告 bao gao 400
打开 da kai 500
终端 zhong duan 80
然后 ran hou 900
输入 shu ru 300
查看 cha kan 250
文件 wen jian 800
如果 ru guo 1500
需要 xu yao 1200
帮助 bang zhu 500
选项 xuan xiang 120
名字 ming zi 400
是 shi 15000
一起 yi qi 800
去 qu 3000
学校 xue xiao 600
天气 tian qi 300
很 hen 3000
好 hao 4000
公园 gong yuan 200
他 ta 5000
在 zai 8000
工作 gong zuo 1500
三 san 900
年 nian 2000
用 yong 2500
系统 xi tong 700
启动 qi dong 150
时候 shi hou 1200
会 hui 3000
读取 du qu 60
配置 pei zhi 150
访问 fang wen 200
获取 huo qu 100
更多 geng duo 300
信息 xin xi 800
管理 guan li 600
写 xie 900
按下 an xia 80
保存 bao cun 200
菜单 cai dan 100
中 zhong 3000
修改 xiu gai 300
"""

# Readings of the single characters ("char syllable score"; 行 and 的 have two, the larger
# score is the common one).
CHARS = """\
我 wo|们 men|今 jin|天 tian|学 xue|习 xi|中 zhong|国 guo|的 de|历 li|史 shi|你 ni|可 ke|
以 yi|使 shi|用 yong|命 ming|令 ling|上 shang|传 chuan|代 dai|码 ma|请 qing|运 yun|
脚 jiao|本 ben|来 lai|安 an|装 zhuang|软 ruan|件 jian|这 zhe|个 ge|包 bao|提 ti|供 gong|
了 le|一 yi|简 jian|单 dan|编 bian|辑 ji|器 qi|老 lao|师 shi|说 shuo|明 ming|下 xia|
雨 yu|人 ren|民 min|银 yin|发 fa|布 bu|新 xin|报 bao|告 gao|打 da|开 kai|终 zhong|
端 duan|然 ran|后 hou|输 shu|入 ru|查 cha|看 kan|文 wen|如 ru|果 guo|需 xu|要 yao|
帮 bang|助 zhu|选 xuan|项 xiang|名 ming|字 zi|是 shi|起 qi|去 qu|校 xiao|气 qi|很 hen|
好 hao|公 gong|园 yuan|他 ta|在 zai|工 gong|作 zuo|三 san|年 nian|系 xi|统 tong|启 qi|
动 dong|时 shi|候 hou|会 hui|读 du|取 qu|配 pei|置 zhi|访 fang|问 wen|获 huo|更 geng|
多 duo|信 xin|息 xi|管 guan|理 li|写 xie|按 an|保 bao|存 cun|菜 cai|修 xiu|改 gai
"""


def counts_text() -> str:
    lines = []
    for line in WORDS.strip().split("\n"):
        parts = line.split()
        lines.append(f"{parts[0]} {parts[-1]} n")
    return "\n".join(lines) + "\n"


def readings_text() -> str:
    lines = []
    for item in CHARS.replace("\n", "").split("|"):
        ch, syl = item.split()
        lines.append(f"{ch} {syl} 0")
    lines += ["行 xing -0.04", "行 hang -1.08", "的 di -3.48"]
    for line in WORDS.strip().split("\n"):
        parts = line.split()
        if len(parts[0]) > 1:
            lines.append(f"{parts[0]} {chr(39).join(parts[1:-1])} 0")
    return "\n".join(lines) + "\n"


def write_tiny_zh_data(root: str | Path) -> Path:
    """data/zh-like directory: train/{docs,help}.txt, dev/docs.txt, lexicon/, manifest."""
    root = Path(root)
    for sub in ("train", "dev", "lexicon"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    (root / "train" / "docs.txt").write_text(TRAIN_DOCS, encoding="utf-8")
    (root / "train" / "help.txt").write_text(HELP_DOCS, encoding="utf-8")
    (root / "dev" / "docs.txt").write_text(DEV_DOCS, encoding="utf-8")
    (root / "lexicon" / "jieba.dict.utf8").write_text(counts_text(), encoding="utf-8")
    (root / "lexicon" / "readings.txt").write_text(readings_text(), encoding="utf-8")
    (root / "manifest.json").write_text(json.dumps(
        {"sources": {"docs": {"weight": 1.0}, "help": {"weight": 1.0}}}) + "\n")
    return root
