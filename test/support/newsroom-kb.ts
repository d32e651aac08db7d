/** A knowledge base for a news site's stories: one Web object a `/story` page, its headline (`title`). */
export const NEWSROOM_KB_XML = `<knowledge-base version="1">
  <application id="newsroom" name="Newsroom" category="news">
    <detect><xpath>//html[@data-app='newsroom']</xpath></detect>
    <level type="terminal">
      <detect><url>/story$</url></detect>
      <extract id="story" type="story" select="//section[@class='story']"><field name="title" select=".//h2"/></extract>
    </level>
  </application>
</knowledge-base>`;
